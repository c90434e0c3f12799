// iKhokha when its keys are configured, else the local sandbox (docs/architecture.md, "Integrations");
// beside it, each hosted provider (PayFast, Ozow, Yoco) whose keys are set (docs/payment-providers.md).
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { createIkhokhaProvider } from "./ikhokha";
import { createOzowProvider } from "./ozow";
import { createPayfastProvider } from "./payfast";
import type { HostedProvider, HostedProviderName, PaymentProvider } from "./provider";
import { createSandboxProvider, type SandboxProvider } from "./sandbox";
import { createYocoProvider } from "./yoco";

export type ActiveProvider = { kind: "ikhokha"; provider: PaymentProvider } | { kind: "sandbox"; provider: SandboxProvider };

/** Which provider the configuration selects, without making it. */
export function providerKindFor(config: Config): ActiveProvider["kind"] {
  return config.IKHOKHA_APP_ID && config.IKHOKHA_APP_SECRET ? "ikhokha" : "sandbox";
}

export function selectPaymentProvider(config: Config, db: Db, publicUrl: string): ActiveProvider {
  if (providerKindFor(config) === "ikhokha" && config.IKHOKHA_APP_ID && config.IKHOKHA_APP_SECRET) {
    return {
      kind: "ikhokha",
      provider: createIkhokhaProvider({
        apiUrl: config.IKHOKHA_API_URL,
        appId: config.IKHOKHA_APP_ID,
        appSecret: config.IKHOKHA_APP_SECRET,
        entityId: config.IKHOKHA_ENTITY_ID,
        requesterUrl: publicUrl,
      }),
    };
  }
  return { kind: "sandbox", provider: createSandboxProvider({ db, publicUrl, secret: config.SANDBOX_SECRET }) };
}

/** The hosted providers the owner turned on (config.ts makes sure each has all its keys), in the order offered. */
export function selectHostedProviders(config: Config): Map<HostedProviderName, HostedProvider> {
  const on = new Map<HostedProviderName, HostedProvider>();
  if (config.PAYFAST_MERCHANT_ID && config.PAYFAST_MERCHANT_KEY && config.PAYFAST_PASSPHRASE) {
    on.set(
      "payfast",
      createPayfastProvider({
        url: config.PAYFAST_URL,
        apiUrl: config.PAYFAST_API_URL,
        merchantId: config.PAYFAST_MERCHANT_ID,
        merchantKey: config.PAYFAST_MERCHANT_KEY,
        passphrase: config.PAYFAST_PASSPHRASE,
      }),
    );
  }
  if (config.OZOW_SITE_CODE && config.OZOW_PRIVATE_KEY && config.OZOW_API_KEY) {
    on.set(
      "ozow",
      createOzowProvider({
        payUrl: config.OZOW_URL,
        apiUrl: config.OZOW_API_URL,
        siteCode: config.OZOW_SITE_CODE,
        privateKey: config.OZOW_PRIVATE_KEY,
        apiKey: config.OZOW_API_KEY,
      }),
    );
  }
  if (config.YOCO_SECRET_KEY && config.YOCO_WEBHOOK_SECRET) {
    on.set(
      "yoco",
      createYocoProvider({ apiUrl: config.YOCO_API_URL, secretKey: config.YOCO_SECRET_KEY, webhookSecret: config.YOCO_WEBHOOK_SECRET }),
    );
  }
  return on;
}
