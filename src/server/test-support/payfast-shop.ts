// A shop that takes PayFast against the fake PayFast over real HTTP, for the auto-renew tests: the
// server listening (the fake posts its ITNs, adhoc ones included, to it), the 3 Months package, and
// the browser's step of posting our signed hand-off form to PayFast.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { formBody } from "@/server/adapters/payments/form-encoding";
import { type FakePayfast, startFakePayfast } from "@/server/adapters/payments/payfast/fake";
import { capturedPayments, clients, packages } from "@/server/db/schema";
import { paymentNotificationsSettled } from "@/server/modules/payments/service";
import { createTestApp, type TestApp } from "@/server/testing";

export const MERCHANT = { merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn a~b" };
export const PUBLIC_URL = "https://shop.example.co.za";
export const CONFIG = {
  PAYFAST_MERCHANT_ID: MERCHANT.merchantId,
  PAYFAST_MERCHANT_KEY: MERCHANT.merchantKey,
  PAYFAST_PASSPHRASE: MERCHANT.passphrase,
  PAYFAST_VALID_IPS: "127.0.0.1",
  PUBLIC_URL,
};

export interface PayfastShop {
  fake: FakePayfast;
  t: TestApp;
  /** where the server listens (the ITNs' notify_url) */
  origin: string;
  threeMonths: { id: string; price: number };
  /** The browser on our hand-off page, posting its signed form to PayFast; the fields it posted. */
  handOff(paylinkUrl: string): Promise<Record<string, string>>;
  /** PayFast's ITN for `ref`, then its processing finished. */
  itn(ref: string, options?: Parameters<FakePayfast["sendItn"]>[1]): ReturnType<FakePayfast["sendItn"]>;
  paymentOf(ref: string): Promise<typeof capturedPayments.$inferSelect>;
  clientOf(id: string): Promise<typeof clients.$inferSelect>;
  close(): Promise<void>;
}

export async function openPayfastShop(): Promise<PayfastShop> {
  const fake = await startFakePayfast(MERCHANT);
  const t = await createTestApp({ ...CONFIG, PAYFAST_URL: fake.url, PAYFAST_API_URL: fake.url }, { seed: true });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fake.adhocNotifyUrl = `${origin}/api/payments/payfast/itn`;
  const [pkg] = await t.app.db.select().from(packages).where(eq(packages.name, "3 Months"));
  return {
    fake,
    t,
    origin,
    threeMonths: { id: pkg.id, price: pkg.price },
    async handOff(paylinkUrl) {
      const page = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
      const fields = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
        ([, k, v]) => [k, v.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'")] as [string, string],
      );
      const posted = await fetch(`${fake.url}/eng/process`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: formBody(fields),
      });
      expect(posted.status, await posted.clone().text()).toBe(200);
      return Object.fromEntries(fields);
    },
    async itn(ref, options = {}) {
      const answer = await fake.sendItn(ref, { origin, ...options });
      await paymentNotificationsSettled();
      return answer;
    },
    paymentOf: async (ref) => (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0],
    clientOf: async (id) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0],
    async close() {
      await fake.adhocItnsSent();
      await paymentNotificationsSettled();
      await t.close();
      await fake.close();
    },
  };
}
