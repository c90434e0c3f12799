// A card the provider keeps and we charge ourselves (issue 44: PayFast's tokenisation, Paystack's
// reusable authorization_code). The token is a secret: callers keep it sealed and never log it;
// adapters never put it in an error message.

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
  /**
   * What became of the charge sent with this reference, where the provider can say (Paystack's
   * verify by reference): `paid` (settle it), `declined`, or `none` (never made: it may be sent
   * again with a new reference). Absent where the provider answers only about the card (PayFast).
   */
  charge?: { outcome: "paid"; amountCents: number; providerPaymentId?: string } | { outcome: "declined" | "none"; reason: string };
}

/** Who the card belongs to, for a provider that checks it on each charge (Paystack: the e-mail it was saved with). */
export interface SavedCardPayer {
  email: string | null;
}

export interface SavedCardCharger {
  /** the provider's name: payfast, paystack */
  readonly provider: string;
  /**
   * The provider names a reusable card on every payment, asked for or not (Paystack's
   * authorization): a card on a payment that did not ask to keep one is dropped, not refused.
   * Where cards come only when asked for (PayFast's token), an unasked one is refused.
   */
  readonly cardOnEveryPayment?: boolean;
  /**
   * The amount, in cents, of a checkout that only keeps a new card ("Use another card"): the
   * smallest the provider documents for it (PayFast: 0, a zero-amount tokenisation). Absent: the
   * provider has no card-saving checkout, and the portal offers none.
   */
  readonly cardSavingCents?: number;
  /** Charges the saved card once; `reference` is our payment reference, carried so the provider's notification finds the payment. */
  charge(token: string, amountCents: number, itemName: string, reference: string, payer?: SavedCardPayer): Promise<SavedCardCharge>;
  /** Tells the provider not to charge this card for us again. Throws PaymentProviderError when it could not. */
  cancel(token: string): Promise<void>;
  /**
   * What the provider holds for this token, and where it can say, for the charge sent with
   * `reference` (after an unknown answer); throws PaymentProviderError when it cannot be asked.
   */
  lookup(token: string, reference?: string): Promise<SavedCardLookup>;
}
