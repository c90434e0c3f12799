import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PaymentProviderError } from "../provider";
import { ikSignature } from "../signing";
import { createIkhokhaProvider, IKHOKHA_PAYMENT_PATH } from "./adapter";
import { type FakeIkhokha, startFakeIkhokha } from "./fake";

const APP_ID = "IKAPP0001";
const SECRET = "fake-secret-with-'quotes'";

let fake: FakeIkhokha;
beforeAll(async () => {
  fake = await startFakeIkhokha({ appId: APP_ID, appSecret: SECRET });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.delayMs = 0;
});

const provider = (overrides: Partial<Parameters<typeof createIkhokhaProvider>[0]> = {}) =>
  createIkhokhaProvider({
    apiUrl: fake.url,
    appId: APP_ID,
    // surrounding whitespace is trimmed, as iKhokha's examples do
    appSecret: `  ${SECRET}\n`,
    requesterUrl: "https://shop.example.co.za",
    ...overrides,
  });

const input = (ref: string, amountCents = 145000) => ({
  amountCents,
  currency: "ZAR" as const,
  description: `3 Months "special" IPTV Subscription`,
  externalTransactionID: ref,
  urls: {
    callbackUrl: "https://shop.example.co.za/api/payments/webhook/ikhokha",
    successPageUrl: `https://shop.example.co.za/payment/success?ref=${ref}`,
    failurePageUrl: `https://shop.example.co.za/payment/failure?ref=${ref}`,
    cancelUrl: `https://shop.example.co.za/payment/cancel?ref=${ref}`,
  },
});

describe("iKhokha adapter against the fake", () => {
  it("creates a pay link with the documented body, signed headers the fake accepts", async () => {
    const created = await provider().createPaylink(input("STRMDSK_1_abc"));
    expect(created.paylinkUrl).toMatch(new RegExp(`^${fake.url}/pay/`));
    const [request] = fake.requests;
    expect(request.status).toBe(200);
    expect(request.method).toBe("POST");
    expect(request.path).toBe(IKHOKHA_PAYMENT_PATH);
    expect(request.appId).toBe(APP_ID);
    // The signature is over path + the exact text sent, keyed with the trimmed secret.
    expect(request.signature).toBe(ikSignature(IKHOKHA_PAYMENT_PATH, request.body, SECRET));
    expect(JSON.parse(request.body)).toEqual({
      entityID: APP_ID,
      amount: 145000,
      currency: "ZAR",
      requesterUrl: "https://shop.example.co.za",
      description: `3 Months "special" IPTV Subscription`,
      mode: "live",
      externalTransactionID: "STRMDSK_1_abc",
      urls: input("STRMDSK_1_abc").urls,
      paymentReference: "STRMDSK_1_abc",
    });
    const stored = fake.paylinks.get(created.paylinkID);
    expect(stored?.amount).toBe(145000);
  });

  it("uses IKHOKHA_ENTITY_ID as entityID when set", async () => {
    await provider({ entityId: "ENTITY-9" }).createPaylink(input("STRMDSK_2_abc"));
    expect(JSON.parse(fake.requests[0].body).entityID).toBe("ENTITY-9");
  });

  it("is refused (401) with a wrong secret or app id, and says so", async () => {
    await expect(provider({ appSecret: "wrong" }).createPaylink(input("STRMDSK_3_abc"))).rejects.toThrow(/iKhokha answered 401/);
    await expect(provider({ appId: "OTHER" }).createPaylink(input("STRMDSK_4_abc"))).rejects.toBeInstanceOf(PaymentProviderError);
    expect(fake.requests.map((r) => r.status)).toEqual([401, 401]);
  });

  it("treats a responseCode other than '00' as a failure", async () => {
    fake.refuseNextCreate("51", "Entity inactive");
    await expect(provider().createPaylink(input("STRMDSK_5_abc"))).rejects.toThrow(/responseCode 51: Entity inactive/);
  });

  it("gives up after the timeout with a clear error", async () => {
    fake.delayMs = 400;
    await expect(provider({ timeoutMs: 100 }).createPaylink(input("STRMDSK_6_abc"))).rejects.toThrow(/did not answer within 0.1 s/);
  });

  it("reports an unreachable API clearly", async () => {
    await expect(provider({ apiUrl: "http://127.0.0.1:9" }).createPaylink(input("STRMDSK_7_abc"))).rejects.toThrow(/could not be reached/);
  });

  it("reads the status with a GET signed over the path", async () => {
    const p = provider();
    const { paylinkID } = await p.createPaylink(input("STRMDSK_8_abc", 65000));
    expect(await p.getStatus(paylinkID)).toEqual({ status: "pending", amountCents: 65000 });
    fake.complete(paylinkID, "SUCCESS");
    expect(await p.getStatus(paylinkID)).toEqual({ status: "paid", amountCents: 65000 });
    fake.complete(paylinkID, "FAILURE");
    expect((await p.getStatus(paylinkID)).status).toBe("failed");
    const get = fake.requests.filter((r) => r.method === "GET");
    expect(get).toHaveLength(3);
    expect(get[0].path).toBe(`/public-api/v1/api/getStatus/${paylinkID}`);
    expect(get[0].signature).toBe(ikSignature(get[0].path, "", SECRET));
    await expect(p.getStatus("unknown")).rejects.toThrow(/answered 404/);
  });

  it("verifies a callback: app id and signature over the callback path + raw body", async () => {
    const p = provider();
    const { paylinkID } = await p.createPaylink(input("STRMDSK_9_abc"));
    const callback = fake.callbackFor(paylinkID, { status: "SUCCESS" });
    const path = new URL(callback.url).pathname;
    expect(p.verifyCallback({ path, rawBody: callback.body, headers: callback.headers })).toBe(true);
    // a changed body, another path, a wrong app id, a missing signature: all refused
    expect(p.verifyCallback({ path, rawBody: callback.body.replace("SUCCESS", "FAILURE"), headers: callback.headers })).toBe(false);
    expect(p.verifyCallback({ path: "/api/payments/webhook/other", rawBody: callback.body, headers: callback.headers })).toBe(false);
    expect(p.verifyCallback({ path, rawBody: callback.body, headers: { ...callback.headers, "ik-appid": "OTHER" } })).toBe(false);
    expect(p.verifyCallback({ path, rawBody: callback.body, headers: { "ik-appid": APP_ID } })).toBe(false);
  });
});
