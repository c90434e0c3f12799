// What the payments module needs from a card provider (docs/architecture.md, "Integrations"): create a pay link,
// verify a callback, and ask for the truth about a pay link before anything is marked paid.

export type ProviderName = "sandbox" | "ikhokha";

export interface PaylinkUrls {
  callbackUrl: string;
  successPageUrl: string;
  failurePageUrl: string;
  cancelUrl: string;
}

export interface CreatePaylinkInput {
  /** integer cents: R100 is 10000 */
  amountCents: number;
  currency: "ZAR";
  description: string;
  /** our id, STRMDSK_… (spec §7) */
  externalTransactionID: string;
  urls: PaylinkUrls;
  /** shown to the customer by the provider; defaults to externalTransactionID */
  paymentReference?: string;
}

export interface CreatedPaylink {
  paylinkUrl: string;
  paylinkID: string;
}

export interface CallbackRequest {
  /** the URL path the callback was sent to (what the provider signed), no host or query */
  path: string;
  /** the body exactly as received */
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

export type PaylinkStatus = "paid" | "failed" | "cancelled" | "pending";

export interface PaylinkStatusResult {
  status: PaylinkStatus;
  amountCents: number;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createPaylink(input: CreatePaylinkInput): Promise<CreatedPaylink>;
  verifyCallback(request: CallbackRequest): boolean;
  /** by the provider's paylinkID, or by our externalTransactionID where the provider allows it */
  getStatus(id: string): Promise<PaylinkStatusResult>;
  /**
   * Gives money back to the card that paid, where the provider has a refund API. iKhokha
   * publishes none, so its refunds are made in its merchant portal and recorded as manual.
   */
  refund?(paylinkID: string, amountCents: number): Promise<{ reference: string }>;
}

/** The provider refused or could not be reached; the message is for logs and admin notes. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

/** Provider words for a pay link's state, mapped to ours; anything unknown is still pending. */
export function statusFromProvider(value: unknown): PaylinkStatus {
  const word = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (["SUCCESS", "SUCCESSFUL", "PAID", "COMPLETED", "APPROVED"].includes(word)) return "paid";
  if (["FAILURE", "FAILED", "DECLINED", "ERROR", "EXPIRED"].includes(word)) return "failed";
  if (["CANCELLED", "CANCELED"].includes(word)) return "cancelled";
  return "pending";
}
