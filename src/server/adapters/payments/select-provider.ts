// Which providers the configuration turns on, asked of the registry (registry.ts): the first
// configured card provider (the test checkout when no real one is), and beside it each hosted
// provider whose keys are set (docs/payment-providers.md). The payments module's entry points
// into the registry: it names no provider, so what it needs of one is asked here.
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { CardProviderName, HostedProvider, HostedProviderName, PaymentProvider } from "./provider";
import { cardProviderFor, configuredHostedProviders } from "./registry";
import type { SandboxProvider } from "./sandbox/adapter";
import { sandboxDefinition } from "./sandbox/definition";

export type { SandboxOutcome as TestCheckoutOutcome, SandboxPaylink as TestPaylink } from "./sandbox/adapter";
export { renderSandboxCheckout as renderTestCheckout, TEST_CHECKOUT_PATH } from "./sandbox/checkout-page";

export type ActiveProvider =
  | { kind: Exclude<CardProviderName, typeof sandboxDefinition.name>; provider: PaymentProvider }
  | { kind: typeof sandboxDefinition.name; provider: SandboxProvider };

/** Which card provider the configuration selects, without making it. */
export function providerKindFor(config: Config): ActiveProvider["kind"] {
  return cardProviderFor(config).name;
}

export function selectPaymentProvider(config: Config, db: Db, publicUrl: string): ActiveProvider {
  const deps = { db, publicUrl };
  const chosen = cardProviderFor(config);
  const kind = chosen.name;
  if (kind === sandboxDefinition.name) return { kind, provider: sandboxDefinition.create(config, deps) };
  return { kind, provider: chosen.create(config, deps) };
}

/** The test checkout, when it is the selected card provider: its ledger (find, settle) and its signed callback. */
export function testCheckoutOf(active: ActiveProvider): SandboxProvider | undefined {
  return active.kind === sandboxDefinition.name ? active.provider : undefined;
}

/** The hosted providers the owner turned on (config.ts makes sure each has all its keys), in the order offered. */
export function selectHostedProviders(config: Config): Map<HostedProviderName, HostedProvider> {
  return new Map(configuredHostedProviders(config).map((d) => [d.name, d.create(config)]));
}
