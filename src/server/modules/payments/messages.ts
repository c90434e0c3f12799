// The customer messages of the payments module: the receipt after a card payment is
// confirmed, and the EFT bank details. Short, plain text, naming the business, saying what
// happens next, ending with the sign-off (docs/architecture.md, "House style").

import { type BusinessProfile, signOff } from "@/server/lib/business";
import { commonVars, type OwnerTemplates, type RenderedMessage, renderMessage } from "@/server/lib/message-templates";
import { formatDate, formatDateTime } from "@/shared/dates";
import { formatRand } from "@/shared/money";

export interface ReceiptFacts {
  reference: string;
  packageName: string;
  /** rand */
  amount: number;
  paidAt: Date;
  /** the client's new subscription end, when the payment belonged to a client account */
  subscriptionEnd: Date | null;
  /** the payment made their account just now (the portal login goes in its own message) */
  newAccount?: boolean;
  /** the account is suspended: the time was added, the suspension stays */
  suspended?: boolean;
  /** the invoice this payment was given (its number: INV-000001) */
  invoice?: string;
  /**
   * The payment has the panel make their line (a create_line was queued): `automatic` when the
   * panel makes it by itself (xtream, sandbox), `by-hand` when the owner makes it (manual mode).
   * Unset: not known, read as by hand for a new account.
   */
  newLine?: "automatic" | "by-hand" | null;
}

/** What the customer is told about their line while it is being made, true in the panel's mode. */
function lineBeingMade(business: BusinessProfile, facts: ReceiptFacts): string {
  return facts.newLine === "automatic"
    ? "Your line is being made now: its streaming login details follow in a separate message as soon as it is ready."
    : `We're setting up your line and will send your streaming login details as soon as it's ready (${business.supportHours}).`;
}

function nextStep(business: BusinessProfile, facts: ReceiptFacts): string {
  const end = facts.subscriptionEnd ? formatDate(facts.subscriptionEnd) : null;
  if (facts.suspended) {
    return `What happens next: your account is suspended, so please contact us to switch it back on.${end ? ` We've added the time you paid for: your subscription now runs until ${end}.` : ""}`;
  }
  if (facts.newAccount) {
    return `What happens next: your client portal login is in a separate message.${end ? ` Your subscription runs until ${end}.` : ""} ${lineBeingMade(business, facts)}`;
  }
  // A client with no line yet (an admin-made account paying for the first time): it is made now,
  // so "your login details stay the same" would promise details they never had.
  if (facts.newLine) {
    const words = lineBeingMade(business, facts);
    return `What happens next: ${words[0]?.toLowerCase()}${words.slice(1)}${end ? ` Your subscription is active until ${end}.` : ""}`;
  }
  if (end) {
    return `What happens next: nothing for you to do. Your subscription is active until ${end} and your login details stay the same. You can see them in the client portal: ${business.publicUrl}/client`;
  }
  return `What happens next: we'll be in touch to set up your account (${business.supportHours}).`;
}

/** The receipt's variables (the owner's template, shared/message-templates.ts). */
export function receiptVars(business: BusinessProfile, facts: ReceiptFacts & { name?: string }) {
  return {
    ...commonVars(business, facts.name ?? ""),
    reference: facts.reference,
    package: facts.packageName,
    amount: formatRand(facts.amount),
    invoice: facts.invoice ?? "",
    paid_at: formatDateTime(facts.paidAt),
    end_date: facts.subscriptionEnd ? formatDate(facts.subscriptionEnd) : "",
    next_step: nextStep(business, facts),
  };
}

/** The receipt in the owner's words (their template, else the default). */
export function receiptEmail(
  business: BusinessProfile,
  facts: ReceiptFacts & { name?: string },
  templates: OwnerTemplates,
): RenderedMessage {
  return renderMessage(templates, "receipt", receiptVars(business, facts));
}

export interface EftBankDetails {
  bank_name: string;
  account_name: string;
  account_number: string;
  branch_code: string;
  account_type: string;
}

export interface EftFacts {
  reference: string;
  packageName: string;
  /** rand */
  amount: number;
  bank: EftBankDetails;
  name?: string;
}

export function eftEmail(business: BusinessProfile, facts: EftFacts): { subject: string; body: string } {
  const body = [
    `Hi ${firstNameOf(facts.name)},`,
    "",
    `Thank you for choosing ${business.companyName}. To pay ${formatRand(facts.amount)} for the ${facts.packageName} package by EFT, use these details:`,
    "",
    `Bank: ${facts.bank.bank_name}`,
    `Account name: ${facts.bank.account_name}`,
    `Account number: ${facts.bank.account_number}`,
    `Branch code: ${facts.bank.branch_code}`,
    ...(facts.bank.account_type.trim() ? [`Account type: ${facts.bank.account_type}`] : []),
    `Amount: ${formatRand(facts.amount)}`,
    `Reference: ${facts.reference}`,
    "",
    "Use the reference exactly as shown: it's how we match your payment to your order.",
    "",
    `What happens next: send us your proof of payment on WhatsApp to speed things up. We activate your subscription as soon as the money reflects (instant EFT usually within the hour during support hours, ${business.supportHours}; other banks can take 1-2 business days) and send you your login details.`,
    "",
    signOff(business),
  ].join("\n");
  return { subject: `${business.companyName}: EFT details for your ${facts.packageName} payment (${facts.reference})`, body };
}

/** The first name a message greets with, "there" when none is known. */
export function firstNameOf(name: string | undefined): string {
  return (name ?? "").trim().split(/\s+/)[0] || "there";
}
