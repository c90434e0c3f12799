// The words of the expiry reminders and trial notices, and the link they carry (issue 27 item 4):
// pure, so the reminders job (jobs/reminders.ts) sends them, the template preview
// (modules/message-templates) shows them, and the auto-renew notices (modules/auto-renew) use
// the same renew link.

import type { PaymentMethods } from "@/shared/api";
import { payWaysWords, portalPayWays } from "@/shared/constants";
import { formatDate, formatDateTime } from "@/shared/dates";
import type { TemplateKind } from "@/shared/message-templates";
import type { BusinessProfile } from "./business";
import { commonVars, type OwnerTemplates, type RenderedMessage, renderMessage } from "./message-templates";

const DAY_MS = 24 * 3_600_000;

/** `<n>d`: the term ends within n days; `expired`: it has ended (reminder day 0). */
export type Threshold = string;

/** A pay link for this client and package, or null when the package is not on sale (or free) (the portal's renew step then). */
export type PayLinks = (clientId: string, packageId: string) => string | null;

export interface ReminderFacts {
  name: string;
  packageName: string;
  end: Date;
  trial: boolean;
  now: Date;
  /** a paid term that has ended: the service keeps going until then (the grace days) */
  graceUntil?: Date | null;
  /** the package the client chose (the pay link is for it) */
  packageId?: string | null;
  /** the client, for their one-tap pay link */
  clientId?: string;
  /** makes the one-tap pay links (modules/pay-links/links.ts), read before the transaction; without it, the portal's link */
  payLinks?: PayLinks | null;
  /** the ways to pay that are on (GET /api/payments/methods); without them, the portal's card and EFT */
  methods?: PaymentMethods | null;
}

/**
 * The renewals' link: the one-tap pay link for the client's package (modules/pay-links, issue 27
 * item 4: no sign-in, so a trial customer without a password pays from the message), when the
 * sender has the pay links and the package is on sale; else the portal's renew step (signed in),
 * for a trial opened on the package chosen at the order.
 */
export function renewLinkFor(
  business: BusinessProfile,
  facts: Pick<ReminderFacts, "trial" | "packageId" | "clientId" | "payLinks">,
): { url: string; oneTap: boolean } {
  const oneTap = facts.payLinks && facts.clientId && facts.packageId ? facts.payLinks(facts.clientId, facts.packageId) : null;
  if (oneTap) return { url: oneTap, oneTap: true };
  const link = `${business.publicUrl}/client?renew=1`;
  return { url: facts.trial && facts.packageId ? `${link}&package=${encodeURIComponent(facts.packageId)}` : link, oneTap: false };
}

/** Which of the owner's templates a reminder uses: trials have their own; reminder days other than 7, 3 and 1 use the nearest (4 and up: 7-day; 2-3: 3-day). */
export function reminderTemplateKind(threshold: Threshold, trial: boolean): TemplateKind {
  if (threshold === "expired") return trial ? "trial-ended" : "reminder-expired";
  if (trial) return "trial-ending";
  const days = Number.parseInt(threshold, 10);
  return days <= 1 ? "reminder-1d" : days <= 3 ? "reminder-3d" : "reminder-7d";
}

/** A reminder's variables (the owner's template, shared/message-templates.ts). */
export function reminderVars(business: BusinessProfile, threshold: Threshold, facts: ReminderFacts) {
  const { url: link, oneTap } = renewLinkFor(business, facts);
  const pkg = facts.packageName || "subscription";
  const days = Math.max(1, Math.ceil((facts.end.getTime() - facts.now.getTime()) / DAY_MS));
  const grace = threshold === "expired" && !facts.trial && facts.graceUntil && facts.graceUntil > facts.now ? facts.graceUntil : null;
  const whatNext = grace
    ? [
        `We've kept your service on until ${formatDateTime(grace)} (SAST) so you can renew without a break: ${link}`,
        "Your renewal counts from the day your term ended, and your login details stay the same.",
      ]
    : [
        oneTap
          ? `To start watching again, tap to pay for your ${pkg}: ${link}`
          : `To start watching again, renew in your client portal: ${link}`,
        "Your line switches back on as soon as your payment is confirmed, with the same login details.",
      ];
  return {
    ...commonVars(business, facts.name),
    package: pkg,
    end_date: formatDate(facts.end),
    end_time: formatDateTime(facts.end),
    days: String(days),
    renew_link: link,
    // the words that go with the link: one tap, or the portal's sign-in first; a trial is no package to pay for
    pay_step: payStep(facts.trial, pkg, link, oneTap),
    when: threshold === "1d" ? `${formatDateTime(facts.end)} (SAST)` : `${formatDate(facts.end)} (in ${days} days)`,
    ends: threshold === "1d" ? "soon" : `on ${formatDate(facts.end)}`,
    grace_until: grace ? formatDateTime(grace) : "",
    // every way that is on (EFT only once it is really offered), as the storefront and portal offer them
    pay_ways: facts.methods ? payWaysWords(facts.methods) : portalPayWays(business.settings),
    what_next: whatNext.join("\n"),
  };
}

/**
 * What the customer does with the link. The one-tap link pays for a package on sale (a trial's:
 * the one picked at the order); without it a trial has no package of its own to pay for ("your
 * Free Trial"): the portal offers the packages to choose from.
 */
function payStep(trial: boolean, pkg: string, link: string, oneTap: boolean): string {
  if (oneTap) return `tap to pay for your ${pkg}: ${link}`;
  return trial ? `choose a package in your client portal: ${link}` : `sign in to your client portal to pay for your ${pkg}: ${link}`;
}

/** The reminder in the owner's words (their template for it, else the default). */
export function reminderMessage(
  business: BusinessProfile,
  threshold: Threshold,
  facts: ReminderFacts,
  templates: OwnerTemplates = {},
): RenderedMessage {
  return renderMessage(templates, reminderTemplateKind(threshold, facts.trial), reminderVars(business, threshold, facts));
}
