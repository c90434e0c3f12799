// The registry of payment providers: one entry per provider the shared schemas name, each complete,
// and the configuration choosing the card provider and turning on the ones beside it as before.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, testConfig } from "@/server/config";
import { CARD_PROVIDER_NAMES, HOSTED_PROVIDER_NAMES, PAYMENT_PROVIDER_NAMES } from "@/shared/payment-providers";
import {
  cardProviderFor,
  configuredHostedProviders,
  isTestProvider,
  PAYMENT_PROVIDER_REGISTRY,
  paymentProviderInfos,
  providerDefinition,
  realCardProvider,
  refundHowFor,
} from "./registry";
import { providerKindFor, selectHostedProviders } from "./select-provider";

const ikhokhaKeys = { IKHOKHA_APP_ID: "app", IKHOKHA_APP_SECRET: "secret" };
const hostedKeys = {
  PAYFAST_MERCHANT_ID: "10000100",
  PAYFAST_MERCHANT_KEY: "46f0cd694581a",
  PAYFAST_PASSPHRASE: "jt7NOE43FZPn",
  OZOW_SITE_CODE: "SITE",
  OZOW_PRIVATE_KEY: "private",
  OZOW_API_KEY: "api",
  YOCO_SECRET_KEY: "sk_test",
  YOCO_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  PAYSTACK_SECRET_KEY: "sk_test_paystack",
};

describe("the payment provider registry", () => {
  it("holds exactly the providers the shared schemas name, once each, in the role its list gives", () => {
    expect(PAYMENT_PROVIDER_REGISTRY.map((d) => d.name).sort()).toEqual([...PAYMENT_PROVIDER_NAMES].sort());
    expect(PAYMENT_PROVIDER_REGISTRY.filter((d) => d.role === "card").map((d) => d.name)).toEqual(
      expect.arrayContaining([...CARD_PROVIDER_NAMES]),
    );
    expect(PAYMENT_PROVIDER_REGISTRY.filter((d) => d.role === "hosted").map((d) => d.name)).toEqual([...HOSTED_PROVIDER_NAMES]);
  });

  it("gives every provider its words, mark, refund sentence and notification path", () => {
    for (const info of paymentProviderInfos()) {
      expect(info.label, info.name).toMatch(/\S/);
      expect(info.sentenceName, info.name).toMatch(/\S/);
      expect(info.mark.length, info.name).toBeGreaterThan(0);
      expect(info.mark.length, info.name).toBeLessThanOrEqual(4);
      expect(info.refund.how, info.name).toMatch(/\.$/);
      expect(info.notificationPath, info.name).toMatch(/^\/api\/payments\//);
      expect(typeof info.capabilities.chargeSavedCard, info.name).toBe("boolean");
      // nothing about keys or the configuration reaches the pages
      expect(Object.keys(info)).not.toContain("configKeys");
    }
    expect(new Set(paymentProviderInfos().map((i) => i.mark)).size).toBe(PAYMENT_PROVIDER_REGISTRY.length);
    // a saved card is charged only where the adapter implements it for renewals (issue 44): PayFast's token and
    // Paystack's reusable authorization
    expect(
      paymentProviderInfos()
        .filter((i) => i.capabilities.chargeSavedCard)
        .map((i) => i.name)
        .sort(),
    ).toEqual(["payfast", "paystack"]);
    for (const d of configuredHostedProviders(testConfig(hostedKeys))) {
      expect(Boolean(d.create(testConfig(hostedKeys)).savedCards), d.name).toBe(d.capabilities.chargeSavedCard);
    }
  });

  it("takes cards through the real card provider when its keys are set, else the test checkout", () => {
    const test = cardProviderFor(testConfig());
    expect(test.test).toBe(true);
    expect(providerKindFor(testConfig())).toBe(test.name);
    const real = cardProviderFor(testConfig(ikhokhaKeys));
    expect(real).toBe(realCardProvider());
    expect(real.test).toBe(false);
    expect(real.configKeys).toEqual(Object.keys(ikhokhaKeys));
    expect(isTestProvider(test.name)).toBe(true);
    expect(isTestProvider(real.name)).toBe(false);
    expect(isTestProvider("eft")).toBe(false);
    expect(providerDefinition("manual")).toBeUndefined();
  });

  it("turns on each provider beside the card provider only with all its keys, in the order offered", () => {
    expect(configuredHostedProviders(testConfig())).toEqual([]);
    expect(selectHostedProviders(testConfig()).size).toBe(0);
    const all = selectHostedProviders(testConfig(hostedKeys));
    expect([...all.keys()]).toEqual([...HOSTED_PROVIDER_NAMES]);
    for (const [name, provider] of all) {
      expect(provider.name).toBe(name);
      expect(provider.label).toBe(providerDefinition(name)?.sentenceName);
    }
    // one key short: not on
    const { OZOW_API_KEY: _dropped, ...short } = hostedKeys;
    expect(configuredHostedProviders(testConfig(short)).map((d) => d.name)).not.toContain(providerDefinition("ozow")?.name);
  });

  it("names the keys that turn each provider on, which the configuration takes all together or not at all", () => {
    for (const d of PAYMENT_PROVIDER_REGISTRY) {
      if (!d.configKeys.length) continue;
      const keys = Object.fromEntries(
        d.configKeys.map((k) => [k, (hostedKeys as Record<string, string>)[k] ?? (ikhokhaKeys as Record<string, string>)[k]]),
      );
      expect(d.configured(testConfig(keys)), d.name).toBe(true);
      // one key without the others stops the server (config.ts), so configured() never sees half a set
      const [first] = d.configKeys;
      if (d.configKeys.length > 1) expect(() => loadConfig({ NODE_ENV: "test", [first]: keys[first] }), d.name).toThrow(ConfigError);
    }
  });

  it("says how a refund goes back by each route a provider uses", () => {
    for (const d of PAYMENT_PROVIDER_REGISTRY) expect(refundHowFor(d.refund.route)).toBe(d.refund.how);
  });
});
