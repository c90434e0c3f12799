// The signing rules of Yoco's webhooks (Standard Webhooks) and Ozow's hashes, against known values.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createOzowProvider, ozowHash, ozowStatus } from "./ozow";
import { NotificationRefused } from "./provider";
import { createYocoProvider, yocoSignature } from "./yoco";

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

describe("Ozow hashes", () => {
  it("SHA-512 of the values in order with the private key appended, all lower-cased", () => {
    const values = ["SITE-1", "ZA", "ZAR", "1450.00", "STRMDSK_1_AbC"];
    const expected = createHash("sha512").update("site-1zazar1450.00strmdsk_1_abcmy-private-key").digest("hex");
    expect(ozowHash(values, "My-Private-KEY")).toBe(expected);
  });

  it("reads a notification hashed in Ozow's documented order, and maps its statuses", () => {
    const ozow = createOzowProvider({
      payUrl: "https://pay.ozow.com",
      apiUrl: "https://api.ozow.com",
      siteCode: "SITE-1",
      privateKey: "key",
      apiKey: "api",
    });
    const fields: Record<string, string> = {
      SiteCode: "SITE-1",
      TransactionId: "9c2f0e5a-1111-2222-3333-444455556666",
      TransactionReference: "STRMDSK_1_abc",
      Amount: "1450.00",
      Status: "Complete",
      CurrencyCode: "ZAR",
      IsTest: "false",
      StatusMessage: "Paid",
    };
    // Ozow's documented order ("Notification response", response variables 1-13), held here, not
    // taken from the adapter: a list the adapter got wrong would otherwise agree with itself.
    const documentedOrder = [
      "SiteCode",
      "TransactionId",
      "TransactionReference",
      "Amount",
      "Status",
      "Optional1",
      "Optional2",
      "Optional3",
      "Optional4",
      "Optional5",
      "CurrencyCode",
      "IsTest",
      "StatusMessage",
    ];
    const values = documentedOrder.map((k) => fields[k] ?? "");
    const body = new URLSearchParams({ ...fields, Hash: ozowHash(values, "key").toUpperCase() }).toString();
    expect(ozow.readNotification({ rawBody: body, headers: {} })).toMatchObject({
      reference: "STRMDSK_1_abc",
      providerPaymentId: fields.TransactionId,
      status: "paid",
      amountCents: 145000,
    });
    expect(["Complete", "Cancelled", "Error", "Abandoned", "PendingInvestigation"].map(ozowStatus)).toEqual([
      "paid",
      "cancelled",
      "failed",
      "cancelled",
      "pending",
    ]);
  });
});
