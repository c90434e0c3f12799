// Billing on a real database: an invoice for every captured payment from one gap-free series
// (also under 50 concurrent captures), the PDF read back, the R5,000 rule, refunds that issue
// credit notes and shorten the term through the lifecycle, coupons and their limits, the
// client's own documents only, the buyer's details, the numbering settings and the month's CSV.
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmailTransport, OutgoingEmail } from "@/server/adapters/email";
import {
  capturedPayments,
  clientLifecycleEvents,
  clients,
  couponRedemptions,
  coupons,
  creditNotes,
  invoices,
  outbox,
  packages,
  siteSettings,
} from "@/server/db/schema";
import { OutboxWorker } from "@/server/jobs/outbox-worker";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, fillBankDetails, onPostgres, type TestApp } from "@/server/testing";
import { COUPON_MESSAGES, REFUND_TOO_MUCH, VAT_NUMBER_MESSAGE } from "@/shared/billing";
import { addMonths, formatDate } from "@/shared/dates";
import { REFUND_KIND, renderAttachment } from "./service";

let t: TestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};
/** a package of our own at R250 a month: easy VAT to check by hand */
let monthly: string;
let ip = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  await fillBankDetails(t.app);
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
  const [pkg] = await t.app.db
    .insert(packages)
    .values({ name: "Billing Monthly", price: 250, duration: "1 Month", duration_months: 1, is_active: true })
    .returning();
  monthly = pkg.id;
  // A VAT vendor at the default 15%.
  await setSetting("vat_vendor", "yes");
  await setSetting("vat_number", "4123456789");
  await setSetting("business_legal_name", "Example Media (Pty) Ltd");
  await setSetting("business_address", "1 Long Street, Cape Town, 8001");
});
afterAll(async () => {
  await t?.close();
});

async function setSetting(key: string, value: string) {
  const [row] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, key));
  if (row) await t.app.db.update(siteSettings).set({ value }).where(eq(siteSettings.key, key));
  else await t.app.db.insert(siteSettings).values({ key, value });
  t.app.cache.clear();
}

let phone = 0;
const nextPhone = () => `0831${String(++phone).padStart(6, "0")}`;

/** An EFT order made through the public endpoint; the payment row. */
/** An EFT reference from the review step, or, with a client's session cookie, from that signed-in client. */
async function eft(payload: Record<string, unknown>, cookies?: Record<string, string>) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/eft",
    payload: { name: "Thandi Buyer", whatsapp: nextPhone(), immediateStartConsent: true, ...payload },
    remoteAddress: `10.9.0.${++ip % 250}`,
    ...(cookies ? { cookies, headers: { origin: "http://localhost:8080" } } : {}),
  });
  if (response.statusCode !== 201) return { response, payment: null };
  const [payment] = await t.app.db
    .select()
    .from(capturedPayments)
    .where(eq(capturedPayments.external_transaction_id, response.json().reference));
  return { response, payment };
}

const markPaid = (id: string) => admin.call({ method: "POST", url: `/api/admin/payments/${id}/mark-paid` });

async function paidOrder(payload: Record<string, unknown> = {}) {
  const { payment, response } = await eft({ packageId: monthly, email: `buyer${phone + 1}@example.co.za`, ...payload });
  if (!payment) throw new Error(`order refused: ${response.body}`);
  expect((await markPaid(payment.id)).statusCode).toBe(200);
  const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.payment_id, payment.id));
  const [after] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, payment.id));
  return { payment: after, invoice };
}

/** pdfjs reads pdfkit's built-in Helvetica from its own font data, on disk. */
const STANDARD_FONTS = `${path.resolve("node_modules/pdfjs-dist/standard_fonts")}/`;

async function pdfText(bytes: Buffer | Uint8Array): Promise<string> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl: STANDARD_FONTS,
  }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    parts.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await doc.destroy();
  return parts.join("\n").replace(/\s+/g, " ");
}

describe("an invoice for every captured payment", () => {
  it("issues INV-000001 at capture: seller, buyer, VAT carved out of the price in cents, the payment reference", async () => {
    const { payment, invoice } = await paidOrder({ company: "Buyer Co", address: "2 Main Road, Durban", vatNumber: "4987 654 321" });
    expect(invoice).toMatchObject({
      number: "INV-000001",
      kind: "tax-abridged",
      incl_cents: 25000,
      // R250 incl at 15%: VAT = 25000 × 15 / 115 = 3260.87 → 3261; excl 21739
      vat_cents: 3261,
      excl_cents: 21739,
      vat_rate: "15",
      reference: payment.external_transaction_id,
    });
    expect(invoice.seller).toMatchObject({
      name: "Example Media (Pty) Ltd",
      vat_number: "4123456789",
      address: "1 Long Street, Cape Town, 8001",
    });
    expect(invoice.buyer).toMatchObject({ company: "Buyer Co", address: "2 Main Road, Durban", vat_number: "4987654321" });

    const list = await admin.call({ method: "GET", url: "/api/admin/invoices" });
    expect(list.json().data[0]).toMatchObject({ type: "invoice", number: "INV-000001", title: "Tax Invoice", incl_cents: 25000 });

    const pdf = await admin.call({ method: "GET", url: "/api/admin/invoices/INV-000001.pdf" });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain("Tax Invoice");
    expect(text).toContain("INV-000001");
    expect(text).toContain("Total excluding VAT R217.39");
    expect(text).toContain("VAT at 15% R32.61");
    expect(text).toContain("Total including VAT R250.00");
    expect(text).toContain("4987654321");
    expect(text).toContain(payment.external_transaction_id);
  });

  it("e-mails the invoice with the receipt: the PDF is made when the message is sent", async () => {
    const { payment, invoice } = await paidOrder();
    const [receipt] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `receipt:${payment.id}`));
    expect(receipt.attachment).toBe(`invoice:${invoice.number}`);
    const sent: OutgoingEmail[] = [];
    const capture: EmailTransport = { name: "capture", send: async (m) => void sent.push(m), verify: async () => {}, close() {} };
    const worker = new OutboxWorker(t.app.db, { email: capture, documents: (ref) => renderAttachment(t.app.db, ref) });
    await worker.drain();
    const mail = sent.find((m) => m.to === receipt.recipient && m.subject === receipt.subject);
    expect(mail?.attachments?.[0]).toMatchObject({ filename: `${invoice.number}.pdf`, contentType: "application/pdf" });
    expect(await pdfText(mail?.attachments?.[0].content as Buffer)).toContain(invoice.number);
  });

  it("a seller who is not a VAT vendor issues an 'Invoice' with no VAT", async () => {
    await setSetting("vat_vendor", "no");
    try {
      const { invoice } = await paidOrder();
      expect(invoice).toMatchObject({ kind: "invoice", vat_cents: 0, excl_cents: 25000, incl_cents: 25000 });
      const text = await pdfText((await admin.call({ method: "GET", url: `/api/admin/invoices/${invoice.number}.pdf` })).rawPayload);
      expect(text).toMatch(/^Invoice /);
      expect(text).not.toContain("Tax Invoice");
    } finally {
      await setSetting("vat_vendor", "yes");
    }
  });

  it("full tax invoice above R5,000, abridged at exactly R5,000", async () => {
    const [at] = await t.app.db
      .insert(packages)
      .values({ name: "Business 5000", price: 5000, duration: "12 Months", duration_months: 12, is_active: true })
      .returning();
    const [above] = await t.app.db
      .insert(packages)
      .values({ name: "Business 5000.01", price: 5000.01, duration: "12 Months", duration_months: 12, is_active: true })
      .returning();
    expect((await paidOrder({ packageId: at.id })).invoice).toMatchObject({ kind: "tax-abridged", incl_cents: 500_000 });
    expect((await paidOrder({ packageId: above.id })).invoice).toMatchObject({ kind: "tax-full", incl_cents: 500_001, vat_cents: 65_218 });
  });

  it("numbers 50 captures sent together without a gap or a repeat (on PGlite's one connection they take turns)", async () => {
    const orders = [];
    for (let i = 0; i < 50; i++) {
      const { payment } = await eft({ packageId: monthly });
      orders.push(payment?.id as string);
    }
    const before = (await t.app.db.select().from(invoices)).length;
    // A click the server answers 503 'busy' (every pooled connection taken for the pool's whole
    // wait, as on a loaded machine) is clicked again, as its Retry-After says; nothing else may fail.
    const busy: string[] = [];
    const capture = async (id: string) => {
      for (;;) {
        const response = await markPaid(id);
        if (response.statusCode !== 503 || response.json().error.code !== "busy" || busy.length > 50) return response;
        busy.push(id);
      }
    };
    const results = await Promise.all(orders.map(capture));
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const numbers = (await t.app.db.select({ number: invoices.number }).from(invoices))
      .map((r) => Number(r.number.slice(4)))
      .sort((a, b) => a - b);
    expect(numbers).toHaveLength(before + 50);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    // A hundred whole requests (50 orders, 50 captures, each with its invoice, lifecycle change and
    // messages) on the embedded database: ~20 s on CI's two busy cores, so the default 20 s is no
    // verdict on them. Speed is npm run bench's to judge; this test judges the numbering.
  }, 90_000);

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): captures on two processes at the same moment are numbered without a gap or a repeat, both processes capturing",
    async () => {
      const other = await secondProcess(t);
      try {
        const otherAdmin = await signInAdmin(other.app);
        const ids: string[] = [];
        for (let i = 0; i < 4; i++) ids.push((await eft({ packageId: monthly })).payment?.id as string);
        const capture = (who: SignedIn, id: string) => who.call({ method: "POST", url: `/api/admin/payments/${id}/mark-paid` });
        // two captures a process, each waiting behind the lock on invoices, then let go together
        const sides = await startTogether(t.database.url as string, "LOCK TABLE invoices IN EXCLUSIVE MODE", 4, () =>
          Promise.all([admin, otherAdmin].map((who, p) => Promise.all(ids.slice(p * 2, p * 2 + 2).map((id) => capture(who, id))))),
        );
        for (const side of sides) expect(side.map((r) => r.statusCode)).toEqual([200, 200]);
        const mine = await t.app.db.select().from(invoices).where(inArray(invoices.payment_id, ids));
        expect(mine).toHaveLength(4);
        const numbers = (await t.app.db.select({ number: invoices.number }).from(invoices))
          .map((r) => Number(r.number.slice(4)))
          .sort((a, b) => a - b);
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      } finally {
        await other.close();
      }
    },
  );
});

describe("refunds and credit notes", () => {
  it("a partial refund issues CN-… against the invoice, keeps the term unless asked, and leaves the rest refundable", async () => {
    const { payment, invoice } = await paidOrder();
    const revenue = async () => (await admin.call({ method: "GET", url: "/api/admin/stats" })).json().revenue_month as number;
    const before = await revenue();
    const response = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 100, reason: "Two days without service" },
    });
    expect(response.statusCode).toBe(200);
    // The overview's revenue counts what was kept.
    expect(await revenue()).toBe(before - 100);
    const result = response.json().data;
    expect(result).toMatchObject({ amount: 100, method: "manual", payment_status: "paid", refunded_amount: 100, term_change: "kept" });
    const [note] = await t.app.db.select().from(creditNotes).where(eq(creditNotes.number, result.credit_note));
    // R100 incl at 15%: VAT 13.04, excl 86.96
    expect(note).toMatchObject({
      invoice_id: invoice.id,
      incl_cents: 10000,
      vat_cents: 1304,
      excl_cents: 8696,
      reason: "Two days without service",
    });
    const text = await pdfText((await admin.call({ method: "GET", url: `/api/admin/credit-notes/${note.number}.pdf` })).rawPayload);
    expect(text).toContain("Credit Note");
    expect(text).toContain(invoice.number);
    expect(text).toContain("Credit including VAT R100.00");

    // More than is left: a 400 on amount, and no credit-note number is used up.
    const tooMuch = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 150.01, reason: "Rest" },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.fields.amount).toContain(REFUND_TOO_MUCH);
    const rest = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 150, reason: "Rest", term: "end" },
    });
    expect(rest.json().data).toMatchObject({ payment_status: "refunded", refunded_amount: 250 });
    expect(Number(rest.json().data.credit_note.slice(3))).toBe(Number(result.credit_note.slice(3)) + 1);
    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, payment.client_id as string));
    expect(client.status).toBe("expired");
  });

  it("a full refund takes back the months it paid for through the lifecycle, once, audited", async () => {
    const first = await paidOrder();
    const clientId = first.payment.client_id as string;
    const [afterFirst] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    // The same client renews early, signed in: a second month on top.
    const { payment: renewal } = await eft({ packageId: monthly }, (await clientSession(t.app, clientId)).cookie);
    expect(renewal?.client_id).toBe(clientId);
    await markPaid(renewal?.id as string);
    const [renewed] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(renewed.subscription_end?.toISOString()).toBe(addMonths(afterFirst.subscription_end as Date, 1).toISOString());

    const response = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${renewal?.id}/refund`,
      payload: { reason: "Paid twice by mistake" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ payment_status: "refunded", amount: 250 });
    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(after.status).toBe("active");
    expect(after.subscription_end?.toISOString()).toBe(afterFirst.subscription_end?.toISOString());
    const events = await t.app.db
      .select()
      .from(clientLifecycleEvents)
      .where(and(eq(clientLifecycleEvents.client_id, clientId), eq(clientLifecycleEvents.cause, "refund")));
    expect(events).toHaveLength(1);
    expect(events[0].cause_key).toBe(`refund:${response.json().data.credit_note}`);
    // The client hears of it, with the credit note attached.
    const [mail] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, REFUND_KIND), eq(outbox.client_id, clientId), eq(outbox.channel, "email")));
    expect(mail.attachment).toBe(`credit_note:${response.json().data.credit_note}`);

    const again = await admin.call({ method: "POST", url: `/api/admin/payments/${renewal?.id}/refund`, payload: { reason: "again" } });
    expect(again.statusCode).toBe(409);
  });

  it("a refund without a reason, or of a payment not paid, is refused and issues nothing", async () => {
    const { payment } = await paidOrder();
    const before = (await t.app.db.select().from(creditNotes)).length;
    const noReason = await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/refund`, payload: {} });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe("Please give a reason");
    const { payment: pending } = await eft({ packageId: monthly });
    const notPaid = await admin.call({ method: "POST", url: `/api/admin/payments/${pending?.id}/refund`, payload: { reason: "x y z" } });
    expect(notPaid.statusCode).toBe(409);
    expect((await t.app.db.select().from(creditNotes)).length).toBe(before);
  });

  it("the card provider's refund API is used when it has one (the sandbox does)", async () => {
    const paylink = await t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { packageId: monthly, name: "Card Payer", whatsapp: nextPhone(), email: "card@example.co.za", immediateStartConsent: true },
      remoteAddress: "10.9.1.1",
    });
    expect(paylink.statusCode).toBe(201);
    const ref = paylink.json().externalTransactionID;
    const pay = await t.app.inject({ method: "POST", url: `/api/payments/sandbox/checkout/${ref}/pay` });
    expect(pay.statusCode).toBeLessThan(400);
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
    expect(payment.status).toBe("paid");
    const response = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${payment.id}/refund`,
      payload: { amount: 50, reason: "Goodwill" },
    });
    expect(response.json().data).toMatchObject({ method: "provider" });
    const [note] = await t.app.db.select().from(creditNotes).where(eq(creditNotes.number, response.json().data.credit_note));
    expect(note.provider_reference).toMatch(/^SBX-RF-/);
  });
});

describe("the refund is announced (issue 25 item 4)", () => {
  const refund = (paymentId: string, payload: Record<string, unknown>) =>
    admin.call({ method: "POST", url: `/api/admin/payments/${paymentId}/refund`, payload });
  const refundMessages = (clientId: string) =>
    t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, REFUND_KIND), eq(outbox.client_id, clientId)));
  const clientOf = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];

  it("a whole refund: the e-mail carries the credit note, the amount and that the line is switched off; WhatsApp the same without e-mail words", async () => {
    const { payment } = await paidOrder({ name: "Thandi Mokoena" });
    const clientId = payment.client_id as string;
    await t.app.db.update(clients).set({ communication_method: "whatsapp" }).where(eq(clients.id, clientId));
    const response = await refund(payment.id, { reason: "Cancelled within the cooling-off period" });
    expect(response.statusCode, response.body).toBe(200);
    const number = response.json().data.credit_note as string;
    const after = await clientOf(clientId);
    expect(after.status).toBe("expired");

    const rows = await refundMessages(clientId);
    expect(rows.map((r) => r.channel).sort()).toEqual(["email", "whatsapp"]);
    const mail = rows.find((r) => r.channel === "email");
    const text = rows.find((r) => r.channel === "whatsapp");
    expect(mail).toMatchObject({
      recipient: after.email,
      attachment: `credit_note:${number}`,
      subject: `StreamDesk: refund of R250 (credit note ${number})`,
    });
    for (const row of [mail, text]) {
      expect(row?.body.startsWith("Hi Thandi,\n")).toBe(true);
      expect(row?.body).toContain(`We've refunded R250 of your payment ${payment.external_transaction_id}`);
      expect(row?.body).toContain("Reason: Cancelled within the cooling-off period");
      expect(row?.body).toContain("Your line: your subscription has ended with this refund, so your line is switched off.");
      expect(row?.body).toContain(`Credit note ${number}:`);
    }
    expect(mail?.body).toContain(`Credit note ${number}: attached to this message as a PDF.`);
    expect(text?.body).not.toMatch(/e-?mail|attached/i);
    expect(text?.body).toContain(`${t.app.config.PUBLIC_URL ?? "http://localhost:8080"}/payment-history`);
    expect(text?.attachment).toBeNull();

    // No Cloud API here: the WhatsApp text waits in the owner's queue, with its chat link; the
    // e-mail sent beside it in the same transaction means no e-mail copy is made.
    await t.app.outbox.drain();
    const [queued] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.id, text?.id as string));
    expect(queued.status).toBe("owner");
    expect(queued.wa_link).toContain(`wa.me/${after.whatsapp}`);
    expect(await refundMessages(clientId)).toHaveLength(2);
  });

  it("a WhatsApp-only customer is told too: one WhatsApp text with the amount, the credit note and that the line stays on", async () => {
    const { payment } = await paidOrder({ name: "Sipho Ndlovu", email: undefined });
    const clientId = payment.client_id as string;
    const before = await clientOf(clientId);
    expect(before.email).toBe("");
    const response = await refund(payment.id, { amount: 100, reason: "Two days without service" });
    expect(response.statusCode, response.body).toBe(200);
    const number = response.json().data.credit_note as string;
    const after = await clientOf(clientId);
    expect(after.status).toBe("active");
    const rows = await refundMessages(clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "whatsapp", recipient: before.whatsapp, attachment: null });
    expect(rows[0].body.startsWith("Hi Sipho,\n")).toBe(true);
    expect(rows[0].body).toContain("We've refunded R100 of your payment");
    expect(rows[0].body).toContain(`Your line: it stays on as before, active until ${formatDate(after.subscription_end as Date)}.`);
    expect(rows[0].body).toContain(`Credit note ${number}: you can download it in your client portal's payment history`);
    expect(rows[0].body).not.toMatch(/e-?mail/i);
    expect(rows[0].template_vars).toMatchObject({ amount: "R100", credit_note: number });
    await t.app.outbox.drain();
    const [queued] = await t.app.db.select().from(outbox).where(eq(outbox.id, rows[0].id));
    expect(queued.status).toBe("owner");
  });

  it("a shortened term says the new end, from the client as the refund left them", async () => {
    const { payment } = await paidOrder({ name: "Lerato Dlamini" });
    const clientId = payment.client_id as string;
    await t.app.db.update(clients).set({ communication_method: "email" }).where(eq(clients.id, clientId));
    const response = await refund(payment.id, { amount: 50, reason: "A week off", term: "shorten", days: 7 });
    expect(response.statusCode, response.body).toBe(200);
    const after = await clientOf(clientId);
    const rows = await refundMessages(clientId);
    // e-mail is their channel: the e-mail alone
    expect(rows.map((r) => r.channel)).toEqual(["email"]);
    expect(rows[0].body).toContain(
      `Your line: your subscription now ends on ${formatDate(after.subscription_end as Date)}. Your line stays on until then, with the same login details.`,
    );
  });

  it("a retried refund announces it once: two sent together (taking turns on PGlite's one connection) and a third later make one credit note and one message per channel", async () => {
    const { payment } = await paidOrder({ name: "Zanele Khumalo" });
    const clientId = payment.client_id as string;
    await t.app.db.update(clients).set({ communication_method: "whatsapp" }).where(eq(clients.id, clientId));
    const both = await Promise.all([refund(payment.id, { reason: "Double click" }), refund(payment.id, { reason: "Double click" })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const later = await refund(payment.id, { reason: "Double click" });
    expect(later.statusCode).toBe(409);
    await t.app.outbox.drain();
    expect(await t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, payment.id))).toHaveLength(1);
    const rows = await refundMessages(clientId);
    expect(rows.map((r) => r.channel).sort()).toEqual(["email", "whatsapp"]);
    expect(rows.filter((r) => r.dedupe_key?.endsWith(":email-copy"))).toEqual([]);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): the same refund on two processes at the same moment: one refunds, the other is told 409; one credit note, one message per channel",
    async () => {
      const other = await secondProcess(t);
      try {
        const otherAdmin = await signInAdmin(other.app);
        const { payment } = await paidOrder({ name: "Sipho Ndlovu" });
        const clientId = payment.client_id as string;
        await t.app.db.update(clients).set({ communication_method: "whatsapp" }).where(eq(clients.id, clientId));
        const refundBy = (who: SignedIn) =>
          who.call({ method: "POST", url: `/api/admin/payments/${payment.id}/refund`, payload: { reason: "Double click" } });
        const both = await startTogether(t.database.url as string, "LOCK TABLE captured_payments IN EXCLUSIVE MODE", 2, () =>
          Promise.all([refundBy(admin), refundBy(otherAdmin)]),
        );
        expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join(" ")).toEqual([200, 409]);
        await t.app.outbox.drain();
        expect(await t.app.db.select().from(creditNotes).where(eq(creditNotes.payment_id, payment.id))).toHaveLength(1);
        const rows = await refundMessages(clientId);
        expect(rows.map((r) => r.channel).sort()).toEqual(["email", "whatsapp"]);
        expect(rows.filter((r) => r.dedupe_key?.endsWith(":email-copy"))).toEqual([]);
      } finally {
        await other.close();
      }
    },
  );

  it("says it in the owner's words once they edit the Refund issued template", async () => {
    const saved = await admin.call({
      method: "PUT",
      url: "/api/admin/message-templates/refund-issued",
      payload: {
        subject: "{{business}} refund {{credit_note}}",
        body: "Hi {{name}},\n\n{{amount}} is on its way back ({{credit_note}}). {{line_after}}\n\n{{sign_off}}",
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const { payment } = await paidOrder({ name: "Bongani Zulu", email: undefined });
      const response = await refund(payment.id, { amount: 25.5, reason: "Goodwill" });
      const number = response.json().data.credit_note as string;
      const [row] = await refundMessages(payment.client_id as string);
      expect(row.subject).toBe(`StreamDesk refund ${number}`);
      expect(row.body).toMatch(
        new RegExp(`^Hi Bongani,\n\nR25\\.50 is on its way back \\(${number}\\)\\. it stays on as before, active until `),
      );
      expect(row.status).not.toBe("failed");
    } finally {
      await admin.call({ method: "DELETE", url: "/api/admin/message-templates/refund-issued" });
    }
  });
});

describe("coupons", () => {
  const create = (payload: Record<string, unknown>) => admin.call({ method: "POST", url: "/api/admin/coupons", payload });

  it("takes 10% off at the review step, priced on the server, shown on the invoice, counted once per captured payment", async () => {
    const made = await create({ code: "save10", kind: "percent", percent_off: 10, max_uses: 2 });
    expect(made.statusCode).toBe(201);
    expect(made.json().data.code).toBe("SAVE10");
    const quote = await t.app.inject({ method: "POST", url: "/api/payments/coupon", payload: { packageId: monthly, coupon: "save10" } });
    expect(quote.json().data).toEqual({ code: "SAVE10", discount: 25, price: 225, list_price: 250 });

    const { payment, response } = await eft({ packageId: monthly, coupon: "SAVE10", amount: 1 });
    expect(response.json().amount).toBe(225);
    expect(payment).toMatchObject({ amount: 225, discount: 25, coupon_code: "SAVE10" });
    await markPaid(payment?.id as string);
    await markPaid(payment?.id as string); // a replay counts nothing
    const [coupon] = await t.app.db.select().from(coupons).where(eq(coupons.code, "SAVE10"));
    expect(coupon.uses).toBe(1);
    expect(await t.app.db.select().from(couponRedemptions).where(eq(couponRedemptions.coupon_id, coupon.id))).toHaveLength(1);
    const [invoice] = await t.app.db
      .select()
      .from(invoices)
      .where(eq(invoices.payment_id, payment?.id as string));
    expect(invoice).toMatchObject({ list_cents: 25000, discount_cents: 2500, incl_cents: 22500, coupon_code: "SAVE10" });
    expect(await pdfText((await admin.call({ method: "GET", url: `/api/admin/invoices/${invoice.number}.pdf` })).rawPayload)).toContain(
      "Coupon SAVE10 -R25.00",
    );

    // One per customer: the same WhatsApp number again is refused before anything is written.
    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, invoice.client_id as string));
    const before = (await t.app.db.select().from(capturedPayments)).length;
    const twice = await eft({ packageId: monthly, coupon: "SAVE10", whatsapp: client.whatsapp });
    expect(twice.response.statusCode).toBe(400);
    expect(twice.response.json().error.fields.coupon).toBe(COUPON_MESSAGES.usedBefore);
    expect((await t.app.db.select().from(capturedPayments)).length).toBe(before);
  });

  it("refuses a coupon past its limit, past its expiry, for another package, or unknown: 400 on coupon", async () => {
    await create({ code: "ONCE", kind: "fixed", amount_off: 50, max_uses: 1 });
    const used = await paidOrder({ coupon: "ONCE" });
    expect(used.payment.amount).toBe(200);
    const cases: [string, string][] = [
      ["ONCE", COUPON_MESSAGES.usedUp],
      ["NOPE", COUPON_MESSAGES.unknown],
    ];
    await create({ code: "OLD", kind: "percent", percent_off: 5, expires_at: new Date(Date.now() - 60_000).toISOString() });
    cases.push(["OLD", COUPON_MESSAGES.expired]);
    await create({ code: "ONLY3", kind: "percent", percent_off: 5, package_id: pkgId["3 Months"] });
    cases.push(["ONLY3", COUPON_MESSAGES.otherPackage]);
    for (const [code, message] of cases) {
      const { response } = await eft({ packageId: monthly, coupon: code });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.fields.coupon, code).toBe(message);
    }
  });

  it("the portal's renew takes a coupon too, priced the same way", async () => {
    await create({ code: "LOYAL", kind: "fixed", amount_off: 20 });
    const { payment } = await paidOrder();
    const session = await clientSession(t.app, payment.client_id as string);
    const renew = await t.app.inject({
      method: "POST",
      url: "/api/client/renew",
      payload: { packageId: monthly, method: "eft", coupon: "loyal" },
      cookies: session.cookie,
      headers: { origin: "http://localhost:8080" },
      remoteAddress: "10.9.2.2",
    });
    expect(renew.statusCode).toBe(201);
    expect(renew.json().amount).toBe(230);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/client/renew",
      payload: { packageId: monthly, method: "eft", coupon: "NOSUCH" },
      cookies: session.cookie,
      headers: { origin: "http://localhost:8080" },
      remoteAddress: "10.9.2.2",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.coupon).toBe(COUPON_MESSAGES.unknown);
  });

  it("checks a coupon's own fields: a duplicate code, a percentage out of range", async () => {
    const dup = await create({ code: "ONCE", kind: "fixed", amount_off: 5 });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error.fields.code).toBe("That code is in use already: choose another.");
    const bad = await create({ code: "BIG", kind: "percent", percent_off: 150 });
    expect(bad.json().error.fields.percent_off).toBe("Enter a percentage from 1 to 100");
  });
});

describe("the client's own documents and details", () => {
  it("client A fetches their invoice; client B's number is a 404", async () => {
    const a = await paidOrder();
    const b = await paidOrder();
    const session = await clientSession(t.app, a.payment.client_id as string);
    const list = await t.app.inject({ method: "GET", url: "/api/client/invoices", cookies: session.cookie });
    expect(list.json().data.map((d: { number: string }) => d.number)).toEqual([a.invoice.number]);
    const own = await t.app.inject({ method: "GET", url: `/api/client/invoices/${a.invoice.number}.pdf`, cookies: session.cookie });
    expect(own.statusCode).toBe(200);
    expect(await pdfText(own.rawPayload)).toContain(a.invoice.number);
    const other = await t.app.inject({ method: "GET", url: `/api/client/invoices/${b.invoice.number}.pdf`, cookies: session.cookie });
    expect(other.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: "GET", url: `/api/client/invoices/${a.invoice.number}.pdf` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("keeps the client's company, address and VAT number for their next invoice; a VAT number of the wrong shape is a 400", async () => {
    const a = await paidOrder();
    const session = await clientSession(t.app, a.payment.client_id as string);
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: "PUT",
        url: "/api/client/billing-details",
        payload,
        cookies: session.cookie,
        headers: { origin: "http://localhost:8080" },
      });
    const bad = await put({ company: "Acme", vatNumber: "5123456789" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.vatNumber).toBe(VAT_NUMBER_MESSAGE);
    const ok = await put({ company: "Acme (Pty) Ltd", address: "3 Dock Road", vatNumber: "4111 111 111" });
    expect(ok.json().data).toEqual({ company: "Acme (Pty) Ltd", address: "3 Dock Road", vatNumber: "4111111111" });

    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, a.payment.client_id as string));
    const { payment: renewal } = await eft({ packageId: monthly }, session.cookie);
    expect(renewal?.client_id).toBe(client.id);
    await markPaid(renewal?.id as string);
    const [invoice] = await t.app.db
      .select()
      .from(invoices)
      .where(eq(invoices.payment_id, renewal?.id as string));
    expect(invoice.buyer).toMatchObject({ company: "Acme (Pty) Ltd", address: "3 Dock Road", vat_number: "4111111111" });
  });

  it("a VAT number of the wrong shape at the review step is a 400 on vatNumber, and nothing is recorded", async () => {
    const before = (await t.app.db.select().from(capturedPayments)).length;
    const { response } = await eft({ packageId: monthly, vatNumber: "4123" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.vatNumber).toBe(VAT_NUMBER_MESSAGE);
    expect((await t.app.db.select().from(capturedPayments)).length).toBe(before);
  });
});

describe("numbering and the bookkeeper's CSV", () => {
  it("moves a series forward, never back onto a number in use", async () => {
    const now = (await admin.call({ method: "GET", url: "/api/admin/billing/numbering" })).json().data;
    const back = await admin.call({
      method: "PUT",
      url: "/api/admin/billing/numbering",
      payload: { invoice_next: 1, credit_note_next: now.credit_note_next },
    });
    expect(back.statusCode).toBe(400);
    expect(back.json().error.fields.invoice_next).toContain(`the next must be ${now.invoice_next} or more`);
    const forward = await admin.call({
      method: "PUT",
      url: "/api/admin/billing/numbering",
      payload: { invoice_next: 1000, credit_note_next: now.credit_note_next },
    });
    expect(forward.json().data).toMatchObject({ invoice_next: 1000, invoice_example: "INV-001000" });
    expect((await paidOrder()).invoice.number).toBe("INV-001000");
  });

  it("exports the month's invoices and credit notes with excl, VAT and incl (credit notes negative)", async () => {
    const month = new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 7);
    const response = await admin.call({ method: "GET", url: `/api/admin/billing/export.csv?month=${month}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toContain(`billing-${month}.csv`);
    const lines = response.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("type,number,date,customer,excl_vat,vat,incl_vat,reference");
    expect(lines.find((l) => l.includes("INV-000001,"))).toMatch(
      /^Tax Invoice,INV-000001,\d{4}-\d\d-\d\d \d\d:\d\d,Buyer Co \(Thandi Buyer\),217\.39,32\.61,250,SD-/,
    );
    expect(lines.find((l) => l.includes("CN-000001,"))).toMatch(/^Credit Note,CN-000001,.*,-86\.96,-13\.04,-100,INV-\d{6}$/);
    const bad = await admin.call({ method: "GET", url: "/api/admin/billing/export.csv?month=2026-13" });
    expect(bad.statusCode).toBe(400);
  });
});
