// Issue 25 item 7: the words of the customer's messages. WhatsApp texts never say "e-mail";
// a message greets by first name when a name is known; a free-trial confirmation quotes a
// reference a person can read, never a UUID; "line restored" states the real status and end.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, outbox } from "@/server/db/schema";
import type { BusinessProfile } from "@/server/lib/business";
import { lineNoticeVars, loadRules } from "@/server/lib/lifecycle";
import { renderMessage } from "@/server/lib/message-templates";
import { signInAdmin } from "@/server/modules/admin-business/test-admin";
import { type LeadFacts, leadReference, orderBusinessEmail, orderCustomerEmail, orderWhatsAppText } from "@/server/modules/orders/messages";
import { eftEmail, receiptEmail, receiptVars } from "@/server/modules/payments/messages";
import { createTestApp, type TestApp } from "@/server/testing";
import { formatDate, formatDateTime } from "@/shared/dates";
import { graceEnd } from "@/shared/lifecycle";
import { TEMPLATE_DEFINITIONS, TEMPLATE_KINDS } from "@/shared/message-templates";

const DAY = 24 * 3600 * 1000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const business: BusinessProfile = {
  companyName: "StreamDesk",
  tagline: "",
  whatsappNumber: "27821234567",
  supportEmail: "help@streamdesk.co.za",
  supportHours: "9am-8pm, 7 days a week",
  publicUrl: "https://streamdesk.co.za",
  settings: {},
};

const lead: LeadFacts = {
  id: "2e130c0d-8c3e-417e-ab23-85f4a949997d",
  form_type: "free-trial",
  name: "Thandi Mokoena",
  email: "thandi@example.co.za",
  whatsapp: "27835550101",
  whatsapp_digits: "27835550101",
  package_name: "Free Trial",
  package_price: "FREE",
  duration: "24 Hours",
  device: "firestick",
  internet_platform: "fibre",
  other_platform: "",
  internet_speed: "50 Mbps",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  ip: "127.0.0.1",
  created_at: new Date("2026-11-22T10:00:00Z"),
};

const receiptFacts = {
  name: "Thandi Mokoena",
  reference: "STRMDSK_1_abc",
  packageName: "3 Months",
  amount: 1450,
  paidAt: new Date("2026-11-22T10:00:00Z"),
  subscriptionEnd: new Date("2027-02-22T10:00:00Z"),
};

describe("the words of the customer's messages", () => {
  it.each([
    ["a renewal", {}],
    ["a new account", { newAccount: true }],
    ["a suspended account", { suspended: true }],
    ["nobody to credit yet", { subscriptionEnd: null }],
  ])("the receipt for %s: greets by first name, and never says e-mail (it also goes on WhatsApp)", (_, extra) => {
    const receipt = receiptEmail(business, { ...receiptFacts, ...extra }, {});
    expect(receipt.body.startsWith("Hi Thandi,\n")).toBe(true);
    expect(receipt.body).not.toMatch(/e-?mail/i);
    expect(receipt.body).toContain("Keep this message as your receipt.");
  });

  it.each([
    [
      "a new account, line made by the panel",
      { newAccount: true, newLine: "automatic" },
      "Your line is being made now: its streaming login details follow in a separate message as soon as it is ready.",
    ],
    [
      "a new account, line made by hand",
      { newAccount: true, newLine: "by-hand" },
      "We're setting up your line and will send your streaming login details as soon as it's ready (9am-8pm, 7 days a week).",
    ],
    [
      "a client's first line, made by the panel",
      { newLine: "automatic" },
      "What happens next: your line is being made now: its streaming login details follow in a separate message as soon as it is ready. Your subscription is active until 22 Feb 2027.",
    ],
    [
      "a renewal of a running line",
      { newLine: null },
      "Your subscription is active until 22 Feb 2027 and your login details stay the same.",
    ],
  ] as const)("the receipt's next step for %s says what is true now", (_, extra, words) => {
    const receipt = receiptEmail(business, { ...receiptFacts, invoice: "INV-000042", ...extra }, {});
    expect(receipt.body).toContain(words);
    expect(receipt.body).toContain("Invoice: INV-000042");
    if (extra.newLine === "automatic") expect(receipt.body).not.toContain("We're setting up your line");
    if (extra.newLine) expect(receipt.body).not.toContain("login details stay the same");
  });

  it("the receipt without an invoice number leaves the Invoice line out", () => {
    expect(receiptEmail(business, receiptFacts, {}).body).not.toContain("Invoice:");
  });

  it.each([
    ["with a line", "line-1", "so your line is switched off for now and your client portal is paused."],
    ["with no line yet", null, "so your client portal is paused for now."],
  ] as const)("line suspended for a client %s says what the hold switches off", (_, line, words) => {
    const vars = lineNoticeVars(business, {
      full_name: "Thandi Mokoena",
      package_name: "3 Months",
      status: "suspended",
      subscription_end: new Date(Date.now() + 20 * DAY),
      panel_line_id: line,
    });
    const message = renderMessage({}, "line-suspended", vars);
    expect(message.body).toContain(`(3 Months) on hold, ${words}`);
    expect(message.body).not.toMatch(/e-?mail/i);
  });

  it("the receipt without a known name says 'Hi there,', never a bare 'Hi,'", () => {
    expect(receiptEmail(business, { ...receiptFacts, name: "" }, {}).body.startsWith("Hi there,\n")).toBe(true);
  });

  it.each([...TEMPLATE_KINDS])("the default %s template greets by {{name}}", (kind) => {
    expect(TEMPLATE_DEFINITIONS[kind].body.split("\n")[0]).toBe("Hi {{name}},");
  });

  it.each(["welcome", "credentials", "receipt", "line-suspended", "line-restored", "trial-ending", "trial-ended"] as const)(
    "the default %s template (sent on WhatsApp too) never says e-mail",
    (kind) => {
      expect(TEMPLATE_DEFINITIONS[kind].body).not.toMatch(/e-?mail/i);
    },
  );

  it("a rendered receipt fills in the first name", () => {
    expect(renderMessage({}, "receipt", receiptVars(business, receiptFacts)).body.split("\n")[0]).toBe("Hi Thandi,");
  });

  it("the EFT details greet by first name", () => {
    const eft = eftEmail(business, {
      reference: "SD-AB12",
      packageName: "3 Months",
      amount: 1450,
      name: "Thandi Mokoena",
      bank: { bank_name: "FNB", account_name: "StreamDesk", account_number: "123", branch_code: "250655", account_type: "Cheque" },
    });
    expect(eft.body.startsWith("Hi Thandi,\n")).toBe(true);
  });

  it.each([
    ["free trial", "free-trial"],
    ["order", "order"],
  ])("the %s confirmation and WhatsApp text quote a short reference, never the UUID; the business note gives both", (_, form) => {
    const facts = { ...lead, form_type: form };
    const reference = leadReference(facts);
    expect(reference).toBe("2E13-0C0D");
    const customer = orderCustomerEmail(facts, business);
    expect(customer.body.startsWith("Hi Thandi,\n")).toBe(true);
    expect(customer.body).toContain(`- Reference: ${reference}`);
    expect(customer.body).not.toMatch(UUID);
    const text = orderWhatsAppText(facts, business);
    expect(text).toContain(`Reference: ${reference}`);
    expect(text).not.toMatch(UUID);
    expect(orderBusinessEmail(facts, "owner@example.co.za").body).toContain(`Reference: ${reference} (lead ${lead.id})`);
  });

  const now = Date.now();
  const rules = { graceDays: 3 };
  it.each([
    ["active", new Date(now + 20 * DAY), (end: Date) => `with the same login details, active until ${formatDate(end)}.`],
    ["trial", new Date(now + DAY / 2), (end: Date) => `your free trial runs until ${formatDateTime(end)} (SAST).`],
    [
      "grace",
      new Date(now - DAY),
      (end: Date) =>
        `Your subscription ended on ${formatDate(end)}. Your line is switched back on with the same login details for the grace period, until ${formatDateTime(graceEnd(end, rules))} (SAST). Renew to keep watching:`,
    ],
    [
      "expired",
      new Date(now - 10 * DAY),
      (end: Date) => `Your subscription ended on ${formatDate(end)}, so your line stays off until you renew:`,
    ],
  ] as const)("line restored for a client now %s states the real status and end", (status, end, words) => {
    const vars = lineNoticeVars(
      business,
      { full_name: "Thandi Mokoena", package_name: "3 Months", status, subscription_end: end },
      { rules },
    );
    expect(vars.restored_note).toContain(words(end));
    if (status !== "active") expect(vars.restored_note).not.toContain("active until");
    const message = renderMessage({}, "line-restored", vars);
    expect(message.subject).toBe("StreamDesk: we've lifted the hold on your account");
    expect(message.body).not.toMatch(/e-?mail/i);
  });
});

describe("line restored, through the API: a client in grace is not 'active until <today>'", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { seed: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("reactivating a suspended client whose term ended yesterday says the grace period and its end", async () => {
    const admin = await signInAdmin(t.app);
    const end = new Date(Date.now() - DAY);
    const [client] = await t.app.db
      .insert(clients)
      .values({
        username: "thandi.m",
        password_hash: "x",
        full_name: "Thandi Mokoena",
        status: "grace",
        package_name: "3 Months",
        subscription_start: new Date(Date.now() - 90 * DAY),
        subscription_end: end,
        whatsapp: "27835550102",
        communication_method: "whatsapp",
      })
      .returning();
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    const res = await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    const [message] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.kind, "line-restored")));
    expect(message.channel).toBe("whatsapp");
    expect(message.body).toContain("Hi Thandi,");
    expect(after.status).toBe("grace");
    const { graceDays } = await loadRules(t.app);
    expect(message.body).toContain(`Your subscription ended on ${formatDate(end)}.`);
    expect(message.body).toContain(`for the grace period, until ${formatDateTime(graceEnd(end, { graceDays }))} (SAST)`);
    expect(message.body).not.toContain("active until");
    expect(message.body).not.toMatch(/e-?mail/i);
  });
});
