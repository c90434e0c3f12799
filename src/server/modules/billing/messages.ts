// The client's message about a refund (issue 25 item 4): the owner's "Refund issued" template
// (shared/message-templates.ts), queued in the refund's transaction on the client's channels.
// By e-mail the credit note's PDF is attached; on WhatsApp the same words point to the portal,
// so a WhatsApp text never speaks of an e-mail. What happens to the line is read from the client
// as the refund left them, so the message is true when it is read.
import { CARD_REFUND, type RefundRoute } from "@/server/adapters/payments/provider";
import { refundHowFor } from "@/server/adapters/payments/registry";
import type { BusinessProfile } from "@/server/lib/business";
import { commonVars, type OwnerTemplates, type RenderedMessage, renderMessage } from "@/server/lib/message-templates";
import { formatDate, formatDateTime } from "@/shared/dates";
import { graceEnd, type LifecycleRules } from "@/shared/lifecycle";
import { formatRand } from "@/shared/money";

export interface RefundFacts {
  /** the client's full name ("" when the payment has no client) */
  name: string;
  packageName: string;
  /** rand */
  amount: number;
  /** the payment's reference */
  reference: string;
  invoice: string;
  creditNote: string;
  method: "provider" | "manual";
  /** how a provider refund goes back (a hosted provider's refund says which); the card when not said */
  route?: RefundRoute | null;
  reason: string;
  /** the client as the refund left them; null when the payment belonged to nobody's account */
  client: { status: string; subscription_end: Date | null } | null;
  /** whether this refund changed the term (shortened or ended it) */
  termChanged: boolean;
}

/** What happens to the line, as the refund left the client ("" when there is no account to speak of). */
export function lineAfterRefund(
  business: BusinessProfile,
  facts: Pick<RefundFacts, "client" | "termChanged">,
  rules: Pick<LifecycleRules, "graceDays">,
): string {
  const client = facts.client;
  if (!client?.subscription_end) return "";
  const end = client.subscription_end;
  const renew = `${business.publicUrl}/client?renew=1`;
  switch (client.status) {
    case "active":
      return facts.termChanged
        ? `your subscription now ends on ${formatDate(end)}. Your line stays on until then, with the same login details.`
        : `it stays on as before, active until ${formatDate(end)}.`;
    case "trial":
      return `your free trial carries on until ${formatDateTime(end)} (SAST).`;
    case "grace":
      return `your subscription ended on ${formatDate(end)}. Your line stays on for the grace period, until ${formatDateTime(graceEnd(end, rules))} (SAST). Renew to keep watching: ${renew}`;
    case "expired":
      return facts.termChanged
        ? `your subscription has ended with this refund, so your line is switched off. To watch again, renew in your client portal: ${renew}`
        : `your subscription ended on ${formatDate(end)}, so your line stays off until you renew: ${renew}`;
    case "suspended":
      return "your account stays on hold, so your line stays off. Message us if you'd like to talk about it.";
    default:
      return "";
  }
}

/**
 * How the money goes back, as it is true when read: a refund made through a provider's API goes the
 * way that provider pays it, in the sentence its registry entry gives for that route (the card paid
 * with when not said); one recorded as manual is paid by the business.
 */
export function refundHow(facts: Pick<RefundFacts, "method" | "route">): string {
  if (facts.method !== "provider") return "We pay it back to you directly.";
  return refundHowFor(facts.route ?? CARD_REFUND.route) ?? CARD_REFUND.how;
}

/** The "Refund issued" template's variables for one channel. */
export function refundVars(
  business: BusinessProfile,
  facts: RefundFacts,
  channel: "email" | "whatsapp",
  rules: Pick<LifecycleRules, "graceDays">,
) {
  return {
    ...commonVars(business, facts.name),
    package: facts.packageName || "subscription",
    amount: formatRand(facts.amount),
    reference: facts.reference,
    invoice: facts.invoice,
    credit_note: facts.creditNote,
    credit_note_where:
      channel === "email"
        ? "attached to this message as a PDF."
        : `you can download it in your client portal's payment history: ${business.publicUrl}/payment-history`,
    refund_how: refundHow(facts),
    reason: facts.reason,
    end_date: facts.client?.subscription_end ? formatDate(facts.client.subscription_end) : "",
    line_after: lineAfterRefund(business, facts, rules),
  };
}

/** The refund message in the owner's words (their template, else the default) for one channel. */
export function refundMessage(
  business: BusinessProfile,
  facts: RefundFacts,
  channel: "email" | "whatsapp",
  context: { templates: OwnerTemplates; rules: Pick<LifecycleRules, "graceDays"> },
): RenderedMessage {
  return renderMessage(context.templates, "refund-issued", refundVars(business, facts, channel, context.rules));
}
