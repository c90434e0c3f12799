// The payment providers' names, and only their names: the one list the shared schemas validate
// against (a payment's provider, a pay link's method). Everything else a provider is (its label,
// its mark, what it can do, its keys) is registered beside its adapter in
// src/server/adapters/payments/registry.ts and reaches the web from the server
// (GET /api/payment-providers). Adding a provider adds its name here (docs/how-to.md, "Add a payment provider").

/** The card providers: the real one when its keys are set, else the local test checkout. */
export const CARD_PROVIDER_NAMES = ["ikhokha", "sandbox"] as const;
/** The providers an owner may turn on beside the card provider, each with its own page. */
export const HOSTED_PROVIDER_NAMES = ["payfast", "ozow", "yoco", "paystack"] as const;
export const PAYMENT_PROVIDER_NAMES = [...CARD_PROVIDER_NAMES, ...HOSTED_PROVIDER_NAMES] as const;

export type CardProviderName = (typeof CARD_PROVIDER_NAMES)[number];
export type HostedProviderName = (typeof HOSTED_PROVIDER_NAMES)[number];
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** What a payment row's provider may say besides a provider: an EFT, or money recorded by hand. */
export const OTHER_PAYMENT_METHODS = ["eft", "manual"] as const;
