// GET /api/payment-providers: what the pages draw a provider's words from, every registered one
// whether on or not, and nothing of the configuration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing";
import type { PaymentMethods, PaymentProviderInfo } from "@/shared/api";
import { PAYMENT_PROVIDER_NAMES } from "@/shared/payment-providers";

const SECRETS = { YOCO_SECRET_KEY: "sk_test_never_shown", YOCO_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(SECRETS, { seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/payment-providers", () => {
  it("lists every registered provider with its words and mark, on or not, and no value of the configuration", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/payment-providers" });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: PaymentProviderInfo[] };
    expect(data.map((p) => p.name).sort()).toEqual([...PAYMENT_PROVIDER_NAMES].sort());
    for (const p of data) {
      expect(p.label).toMatch(/\S/);
      expect(p.sentenceName).toMatch(/\S/);
      expect(p.mark).toMatch(/\S/);
      expect(["card", "hosted"]).toContain(p.role);
    }
    // exactly one card provider is the test checkout
    expect(data.filter((p) => p.test).map((p) => p.role)).toEqual(["card"]);
    // the keys' names are how the owner turns one on (turnOn); their values never leave the server
    for (const secret of Object.values(SECRETS)) expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain('"configKeys"');
  });

  it("names each way to pay GET /api/payments/methods offers, by the same name", async () => {
    const providers = ((await t.app.inject({ method: "GET", url: "/api/payment-providers" })).json() as { data: PaymentProviderInfo[] })
      .data;
    const methods = ((await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json() as { data: PaymentMethods }).data;
    const byName = new Map(providers.map((p) => [p.name, p]));
    expect(methods.card).not.toBe("off");
    expect(byName.get(methods.card as PaymentProviderInfo["name"])?.role).toBe("card");
    expect(methods.providers?.length).toBe(1);
    for (const on of methods.providers ?? []) {
      expect(byName.get(on.id)?.role).toBe("hosted");
      expect(on.name).toBe(byName.get(on.id)?.sentenceName);
    }
  });

  it("gives each provider the notification path the server answers it on", async () => {
    const providers = ((await t.app.inject({ method: "GET", url: "/api/payment-providers" })).json() as { data: PaymentProviderInfo[] })
      .data;
    const post = (url: string) => t.app.inject({ method: "POST", url, payload: "", headers: { "content-type": "text/plain" } });
    const noRoute = await post("/api/payments/no-such-path/notify");
    expect(noRoute.statusCode).toBe(404);
    const noRouteWords = /^No such endpoint/;
    expect(noRoute.json().error.message).toMatch(noRouteWords);
    for (const p of providers) {
      const res = await post(p.notificationPath);
      // a route answers it: refused for what it carries (nothing signed), or for the provider being off; never "no such route"
      expect(res.statusCode, p.notificationPath).toBeGreaterThanOrEqual(400);
      expect(res.json().error?.message ?? "", p.notificationPath).not.toMatch(noRouteWords);
    }
  });
});
