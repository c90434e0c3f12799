// The words of the "Refund issued" message (issue 25 item 4), as table tests: the amount in
// rand, the credit note, how the money goes back, and what happens to the line for each status a
// refund can leave a client in; the WhatsApp text never speaks of an e-mail or an attachment.
import { describe, expect, it } from "vitest";
import type { BusinessProfile } from "@/server/lib/business";
import { formatDate, formatDateTime } from "@/shared/dates";
import { graceEnd } from "@/shared/lifecycle";
import { TEMPLATE_DEFINITIONS } from "@/shared/message-templates";
import { lineAfterRefund, type RefundFacts, refundHow, refundMessage } from "./messages";

const DAY = 86_400_000;
const business: BusinessProfile = {
  companyName: "StreamDesk",
  tagline: "",
  whatsappNumber: "27821234567",
  supportEmail: "help@streamdesk.co.za",
  supportHours: "9am-8pm, 7 days a week",
  publicUrl: "https://streamdesk.co.za",
  settings: {},
};
const rules = { graceDays: 3 };
const now = Date.now();
const later = new Date(now + 20 * DAY);
const earlier = new Date(now - DAY);

const facts: RefundFacts = {
  name: "Thandi Mokoena",
  packageName: "3 Months",
  amount: 1450,
  reference: "STRMDSK_1_abc",
  invoice: "INV-000007",
  creditNote: "CN-000003",
  method: "manual",
  reason: "Cancelled within the cooling-off period",
  client: { status: "expired", subscription_end: new Date(now) },
  termChanged: true,
};

describe("what a refund says happens to the line", () => {
  it.each([
    [
      "active, term kept",
      { status: "active", subscription_end: later },
      false,
      `it stays on as before, active until ${formatDate(later)}.`,
    ],
    [
      "active, term shortened",
      { status: "active", subscription_end: later },
      true,
      `your subscription now ends on ${formatDate(later)}. Your line stays on until then, with the same login details.`,
    ],
    [
      "on a free trial",
      { status: "trial", subscription_end: later },
      false,
      `your free trial carries on until ${formatDateTime(later)} (SAST).`,
    ],
    [
      "in the grace days",
      { status: "grace", subscription_end: earlier },
      false,
      `your subscription ended on ${formatDate(earlier)}. Your line stays on for the grace period, until ${formatDateTime(graceEnd(earlier, rules))} (SAST). Renew to keep watching: https://streamdesk.co.za/client?renew=1`,
    ],
    [
      "ended by this refund",
      { status: "expired", subscription_end: earlier },
      true,
      "your subscription has ended with this refund, so your line is switched off. To watch again, renew in your client portal: https://streamdesk.co.za/client?renew=1",
    ],
    [
      "ended before",
      { status: "expired", subscription_end: earlier },
      false,
      `your subscription ended on ${formatDate(earlier)}, so your line stays off until you renew: https://streamdesk.co.za/client?renew=1`,
    ],
    [
      "suspended",
      { status: "suspended", subscription_end: later },
      true,
      "your account stays on hold, so your line stays off. Message us if you'd like to talk about it.",
    ],
    ["pending (no term)", { status: "pending", subscription_end: null }, false, ""],
  ] as const)("a client %s", (_, client, termChanged, words) => {
    expect(lineAfterRefund(business, { client, termChanged }, rules)).toBe(words);
  });

  it("says nothing about a line when the payment belonged to no account: the line is left out", () => {
    expect(lineAfterRefund(business, { client: null, termChanged: false }, rules)).toBe("");
    const message = refundMessage(business, { ...facts, client: null, termChanged: false }, "email", { templates: {}, rules });
    expect(message.body).not.toContain("Your line:");
  });
});

describe("the Refund issued message", () => {
  it.each([
    ["email", "Credit note CN-000003: attached to this message as a PDF."],
    [
      "whatsapp",
      "Credit note CN-000003: you can download it in your client portal's payment history: https://streamdesk.co.za/payment-history",
    ],
  ] as const)("by %s: greets by first name, the amount in rand, the reference, invoice, credit note and the line", (channel, where) => {
    const message = refundMessage(business, facts, channel, { templates: {}, rules });
    expect(message.error).toBeNull();
    expect(message.subject).toBe("StreamDesk: refund of R1,450 (credit note CN-000003)");
    expect(message.body.split("\n")).toEqual([
      "Hi Thandi,",
      "",
      "We've refunded R1,450 of your payment STRMDSK_1_abc to StreamDesk (invoice INV-000007).",
      "We pay it back to you directly.",
      "Reason: Cancelled within the cooling-off period",
      "",
      "Your line: your subscription has ended with this refund, so your line is switched off. To watch again, renew in your client portal: https://streamdesk.co.za/client?renew=1",
      "",
      where,
      "",
      "— StreamDesk",
      "Need a person? WhatsApp +27 82 123 4567 or help@streamdesk.co.za (9am-8pm, 7 days a week).",
    ]);
    expect(message.body).toContain("StreamDesk");
    if (channel === "whatsapp") expect(message.body).not.toMatch(/e-?mail|attach/i);
  });

  it.each([
    ["provider", "It goes back to the card you paid with; banks usually take 5 to 10 working days."],
    ["manual", "We pay it back to you directly."],
  ] as const)("a %s refund says how the money goes back", (method, words) => {
    expect(refundMessage(business, { ...facts, method, amount: 99.5 }, "whatsapp", { templates: {}, rules }).body).toContain(
      `We've refunded R99.50 of your payment STRMDSK_1_abc to StreamDesk (invoice INV-000007).\n${words}`,
    );
  });

  it("the default template never says e-mail (it goes on WhatsApp too)", () => {
    expect(TEMPLATE_DEFINITIONS["refund-issued"].body).not.toMatch(/e-?mail/i);
  });

  it("an owner's template that no longer renders falls back to the default text, marked with the reason", () => {
    const message = refundMessage(business, facts, "email", {
      templates: { "refund-issued": { subject: "Refund", body: "Hi {{name}} {{shoe_size}}" } },
      rules,
    });
    expect(message.error).toMatch(/"Refund issued" template cannot be used/);
    expect(message.body).toContain("We've refunded R1,450");
  });
});

describe("how the refund message says the money goes back", () => {
  it("names the way each route pays: the card, PayFast's source, Ozow's bank account, or the business by hand", () => {
    expect(refundHow({ method: "provider", route: "card" })).toBe(
      "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
    );
    expect(refundHow({ method: "provider", route: null })).toContain("the card you paid with");
    expect(refundHow({ method: "provider", route: "payment-source" })).toContain(
      "PayFast pays it back to the card or account you paid with",
    );
    expect(refundHow({ method: "provider", route: "bank-account" })).toContain("Ozow pays it back into the bank account you paid from");
    expect(refundHow({ method: "manual", route: "bank-account" })).toBe("We pay it back to you directly.");
    const ozow = refundMessage(business, { ...facts, method: "provider", route: "bank-account" }, "whatsapp", { templates: {}, rules });
    expect(ozow.body).toContain("Ozow pays it back into the bank account you paid from");
    expect(ozow.body).not.toMatch(/card you paid|e-mail|attached/i);
  });
});
