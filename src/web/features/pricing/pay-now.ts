// Paying for a package from the review step (spec §7, §8): by card, a pay link opened in a new
// tab; or, when card payments are off, EFT details. A refusal the visitor can fix comes back as
// messages for the review step's fields; anything else is the spec's 'Payment Error' toast.

import type { EftResponse } from "@/shared/api";
import { ApiError } from "@/web/lib/api";
import { closeTab, openPendingTab, sendTabTo } from "@/web/lib/new-tab";
import { toast } from "@/web/lib/toast";
import { createPaylink, type PaymentRequest } from "./api/create-paylink";
import { requestEft } from "./api/request-eft";

export const PAYMENT_MESSAGES = {
  successTitle: "Payment Link Created",
  success: "You've been redirected to complete your payment.",
  errorTitle: "Payment Error",
  failed: "Failed to create payment link. Please try again.",
  noLink: "Failed to create payment link",
  eftFailed: "Failed to get the EFT details. Please try again.",
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

/** The review step's fields, which the server may name in a 400. */
export const PAYER_FIELDS = [
  "name",
  "whatsapp",
  "email",
  "immediateStartConsent",
  "coupon",
  "company",
  "address",
  "vatNumber",
  "verificationCode",
  "lineType",
  "mac",
] as const;
export type PayerField = (typeof PAYER_FIELDS)[number];
export type PayerFieldErrors = Partial<Record<PayerField, string>>;

export type PaymentAttempt<T = undefined> = { ok: true; value: T } | { ok: false; fields: PayerFieldErrors };

/**
 * The tab the pay link will open in. Call it inside the click, before any await, so that popup
 * blockers let it through; null when the browser blocked it (the link then opens in this tab).
 */
export function openPaymentTab(): Window | null {
  return openPendingTab("Preparing your secure payment page...");
}

export async function payByCard(request: PaymentRequest, tab: Window | null): Promise<PaymentAttempt> {
  try {
    const result = await createPaylink(request);
    if (!result?.success || !result.paylinkUrl) {
      closeTab(tab);
      toast.error(PAYMENT_MESSAGES.errorTitle, { description: PAYMENT_MESSAGES.noLink });
      return { ok: false, fields: {} };
    }
    sendTabTo(tab, result.paylinkUrl);
    toast.success(PAYMENT_MESSAGES.successTitle, { description: PAYMENT_MESSAGES.success });
    return { ok: true, value: undefined };
  } catch (error) {
    closeTab(tab);
    return { ok: false, fields: explainFailure(error, PAYMENT_MESSAGES.failed) };
  }
}

export async function payByEft(request: PaymentRequest): Promise<PaymentAttempt<EftResponse>> {
  try {
    return { ok: true, value: await requestEft(request) };
  } catch (error) {
    return { ok: false, fields: explainFailure(error, PAYMENT_MESSAGES.eftFailed) };
  }
}

/** A 400 naming the review step's fields: their messages. Anything else: the toast, and no fields. */
function explainFailure(error: unknown, fallback: string): PayerFieldErrors {
  if (!(error instanceof ApiError)) {
    console.error(error);
    toast.error(PAYMENT_MESSAGES.errorTitle, { description: PAYMENT_MESSAGES.unexpected });
    return {};
  }
  const fields: PayerFieldErrors = {};
  if (error.status === 400) {
    for (const name of PAYER_FIELDS) if (error.fields[name]) fields[name] = error.fields[name];
  }
  if (Object.keys(fields).length === 0) {
    // The server said why (its message), or the request never arrived (status 0).
    toast.error(PAYMENT_MESSAGES.errorTitle, { description: error.status > 0 && error.message ? error.message : fallback });
  }
  return fields;
}
