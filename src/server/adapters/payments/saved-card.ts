// A card the provider keeps and we charge ourselves (issue 44: PayFast's tokenisation now,
// Paystack's authorization_code later). The token is a secret: callers keep it sealed and never
// log it; adapters never put it in an error message.

/** What a charge of a saved card came to. `paid`: the provider took it (its notification settles the payment). */
export type SavedCardCharge =
  | { outcome: "paid"; providerReference?: string }
  | { outcome: "declined"; reason: string }
  /** no answer, a 5xx, an unreadable answer: it may have been charged; look it up before any new attempt */
  | { outcome: "unknown"; reason: string };

export interface SavedCardLookup {
  /** the provider still holds the card for charges (not cancelled) */
  active: boolean;
  /** the provider's word for it, for notes */
  status: string;
}

export interface SavedCardCharger {
  /** the provider's name: payfast */
  readonly provider: string;
  /** Charges the saved card once; `reference` is our payment reference, carried so the provider's notification finds the payment. */
  charge(token: string, amountCents: number, itemName: string, reference: string): Promise<SavedCardCharge>;
  /** Tells the provider not to charge this card for us again. Throws PaymentProviderError when it could not. */
  cancel(token: string): Promise<void>;
  /** What the provider holds for this token (after an unknown answer); throws PaymentProviderError when it cannot be asked. */
  lookup(token: string): Promise<SavedCardLookup>;
}
