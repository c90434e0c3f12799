// The one registry of payment providers (issue 43): one line per provider, each entry defined beside
// its adapter (<name>.definition.ts): its names and mark, what it can do, how its refunds go back,
// the keys that turn it on, how it is made, and where it tells us. Server modules and web features
// ask here (the web through GET /api/payment-providers); none names a provider.
// Adding a provider: docs/how-to.md, "Add a payment provider".
import type { Config } from "@/server/config";
import type { PaymentProviderInfo } from "@/shared/api";
import { ikhokhaDefinition } from "./ikhokha/definition";
import { ozowDefinition } from "./ozow/definition";
import { payfastDefinition } from "./payfast/definition";
import { paystackDefinition } from "./paystack/definition";
import type { CardProviderDefinition, HostedProviderDefinition, ProviderDefinition, RefundRoute } from "./provider";
import { sandboxDefinition } from "./sandbox/definition";
import { yocoDefinition } from "./yoco/definition";

/**
 * Every provider. Card providers in the order they are preferred (the first configured one takes
 * the cards; the test checkout, always configured, last); hosted ones in the order offered.
 */
export const PAYMENT_PROVIDER_REGISTRY = [
  ikhokhaDefinition,
  sandboxDefinition,
  payfastDefinition,
  ozowDefinition,
  yocoDefinition,
  paystackDefinition,
] as const satisfies readonly ProviderDefinition[];

export type RegisteredProvider = (typeof PAYMENT_PROVIDER_REGISTRY)[number];

const byName = new Map<string, ProviderDefinition>(PAYMENT_PROVIDER_REGISTRY.map((d) => [d.name, d]));

/** The entry for a provider's name (a payment row's provider, a route's parameter); undefined for EFT, manual, or anything unknown. */
export function providerDefinition(name: string | null | undefined): ProviderDefinition | undefined {
  return name ? byName.get(name) : undefined;
}

export const cardProviderDefinitions = (): CardProviderDefinition[] =>
  PAYMENT_PROVIDER_REGISTRY.filter((d): d is Extract<RegisteredProvider, { role: "card" }> => d.role === "card");

export const hostedProviderDefinitions = (): HostedProviderDefinition[] =>
  PAYMENT_PROVIDER_REGISTRY.filter((d): d is Extract<RegisteredProvider, { role: "hosted" }> => d.role === "hosted");

/** The card provider the configuration selects: the first configured one (the test checkout when no real one is). */
export function cardProviderFor(config: Config): CardProviderDefinition {
  const found = cardProviderDefinitions().find((d) => d.configured(config));
  if (!found) throw new Error("no card provider is configured, not even the test checkout");
  return found;
}

/** The real card provider (the one that takes money), for "set these keys to take real payments". */
export function realCardProvider(): CardProviderDefinition | undefined {
  return cardProviderDefinitions().find((d) => !d.test);
}

/** The hosted providers the configuration turns on, in the order offered. */
export function configuredHostedProviders(config: Config): HostedProviderDefinition[] {
  return hostedProviderDefinitions().filter((d) => d.configured(config));
}

/** Whether a payment row's provider is a registered provider that takes no real money (the test checkout). */
export function isTestProvider(name: string | null | undefined): boolean {
  return providerDefinition(name)?.test === true;
}

/** The customer's sentence for how a provider refund goes back by that route (the same for every provider of a route). */
export function refundHowFor(route: RefundRoute): string | undefined {
  return PAYMENT_PROVIDER_REGISTRY.find((d) => d.refund.route === route)?.refund.how;
}

/** What the pages show of one provider (GET /api/payment-providers): no keys, nothing about the configuration. */
export function providerInfo(d: ProviderDefinition): PaymentProviderInfo {
  return {
    name: d.name,
    label: d.label,
    sentenceName: d.sentenceName,
    mark: d.mark,
    role: d.role,
    test: d.test,
    choiceText: d.choiceText,
    turnOn: d.turnOn,
    capabilities: { ...d.capabilities },
    refund: { ...d.refund },
    notificationPath: d.notificationPath,
  };
}

export const paymentProviderInfos = (): PaymentProviderInfo[] => PAYMENT_PROVIDER_REGISTRY.map(providerInfo);
