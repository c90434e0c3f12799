// Real money only in production: a shop on https:// with no card provider configured takes no
// test-checkout payments (anyone holding a reference could press Pay and extend a term); EFT
// still works. PAYMENTS_SANDBOX=on makes a deliberate test shop; http:// (a local demo) keeps
// the sandbox by default.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, packages } from "@/server/db/schema";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";

let live: TestApp;
let testShop: TestApp;
let packageId: string;
let counter = 0;

const payer = () => ({ name: "Mode Payer", whatsapp: `0870${String(++counter).padStart(6, "0")}`, immediateStartConsent: true });
const post = (t: TestApp, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress: `10.9.0.${++counter % 250}` });

beforeAll(async () => {
  live = await createTestApp({ PUBLIC_URL: "https://shop.example.co.za" }, { seed: true });
  testShop = await createTestApp({ PUBLIC_URL: "https://test.example.co.za", PAYMENTS_SANDBOX: "on" }, { seed: true });
  await fillBankDetails(live.app);
  await fillBankDetails(testShop.app);
  const [pkg] = await live.app.db.select({ id: packages.id }).from(packages).limit(1);
  packageId = pkg.id;
});
afterAll(async () => {
  await live?.close();
  await testShop?.close();
});

describe("an https:// shop with no card provider", () => {
  it("says card payments are off, and refuses a pay link with a clear 409, saving nothing", async () => {
    expect((await live.app.inject({ method: "GET", url: "/api/payments/methods" })).json()).toEqual({
      data: { card: "off", eft: true, providers: [], loginChannel: "email" },
    });
    const before = (await live.app.db.select().from(capturedPayments)).length;
    const response = await post(live, "/api/payments/paylink", { ...payer(), packageId });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: "card_payments_off",
      message: "Card payments are not available at the moment. Please pay by EFT instead.",
    });
    expect(await live.app.db.select().from(capturedPayments)).toHaveLength(before);
  });

  it("has no test checkout to press Pay on", async () => {
    const page = await live.app.inject({ method: "GET", url: "/api/payments/sandbox/checkout/STRMDSK_1_anything" });
    expect(page.statusCode).toBe(404);
    const press = await live.app.inject({
      method: "POST",
      url: "/api/payments/sandbox/checkout/STRMDSK_1_anything/pay",
      headers: { origin: "https://shop.example.co.za", "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(press.statusCode).toBe(404);
  });

  it("still takes EFT", async () => {
    const response = await post(live, "/api/payments/eft", { ...payer(), packageId });
    expect(response.statusCode).toBe(201);
    expect(response.json().reference).toMatch(/^SD-/);
  });
});

describe("PAYMENTS_SANDBOX=on (a deliberate test shop on https://)", () => {
  it("keeps the test checkout", async () => {
    expect((await testShop.app.inject({ method: "GET", url: "/api/payments/methods" })).json()).toEqual({
      data: { card: "sandbox", eft: true, providers: [], loginChannel: "email" },
    });
    const [pkg] = await testShop.app.db.select({ id: packages.id }).from(packages).limit(1);
    const response = await post(testShop, "/api/payments/paylink", { ...payer(), packageId: pkg.id });
    expect(response.statusCode).toBe(201);
    expect(response.json().paylinkUrl).toMatch(/^https:\/\/test\.example\.co\.za\/api\/payments\/sandbox\/checkout\/STRMDSK_/);
  });
});
