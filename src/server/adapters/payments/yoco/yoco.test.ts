// The signing rules of Yoco's webhooks (Standard Webhooks), against known values.
import { describe, expect, it } from "vitest";
import { NotificationRefused } from "../provider";
import { createYocoProvider, yocoSignature } from "./adapter";

describe("Yoco webhook signatures (Standard Webhooks)", () => {
  // The example in the Standard Webhooks specification's README.
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = "1614265330";
  const body = '{"test": 2432232314}';

  it("matches the specification's published example", () => {
    expect(yocoSignature(secret, id, timestamp, body)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("accepts any v1 of several (a rotating key), refuses a stale timestamp, reads no body before the signature", () => {
    const yoco = createYocoProvider({
      apiUrl: "https://payments.yoco.com",
      secretKey: "sk",
      webhookSecret: secret,
      now: () => 1614265330_000,
    });
    const refusal = (headers: Record<string, string>, raw = body) => {
      try {
        yoco.readNotification({ rawBody: raw, headers });
      } catch (error) {
        if (error instanceof NotificationRefused) return `${error.kind}: ${error.message}`;
        throw error;
      }
      return "accepted";
    };
    const signature = yocoSignature(secret, id, timestamp, body);
    const headers = { "webhook-id": id, "webhook-timestamp": timestamp };
    // Signed correctly, so the body's shape is what is refused next (it is no Yoco event).
    expect(refusal({ ...headers, "webhook-signature": `v1,bm90LXRoaXM= ${signature}` })).toMatch(/^bad_input: The webhook's type/);
    expect(refusal({ ...headers, "webhook-signature": "v1,bm90LXRoaXM=" })).toBe("bad_signature: The webhook's signature does not match.");
    const old = String(1614265330 - 181);
    expect(refusal({ "webhook-id": id, "webhook-timestamp": old, "webhook-signature": yocoSignature(secret, id, old, body) })).toBe(
      "bad_signature: The webhook's timestamp is more than 3 minutes off.",
    );
  });
});
