// The refund message delivered (issue 25 item 4), with the WhatsApp Cloud API pointed at our
// fake (adapters/fake-whatsapp-cloud.ts) and an SMTP sink on a loopback port: a client with an
// e-mail address gets the mail with the credit note's PDF attached; a WhatsApp-only client gets the
// text through the Cloud API (free text inside the 24-hour window, the kind's approved template
// outside it), never in the owner's queue while the Cloud API can send it.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeWhatsAppCloud } from "@/server/adapters/fake-whatsapp-cloud";
import { capturedPayments, clients, outbox, packages, whatsappWindows } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import type { ReceivedMail } from "@/server/test-support/smtp-sink";
import { eventually, fillBankDetails } from "@/server/testing";
import { REFUND_KIND } from "./service";

const TOKEN = "EAAG-refund-token";
const PHONE_NUMBER_ID = "109876543299";

let fake: FakeWhatsAppCloud;
let mails: ReceivedMail[];
let t: MessagingTestApp;
let admin: SignedIn;
let monthly: string;
let n = 0;

beforeAll(async () => {
  const started = await createMessagingTestApp({
    whatsapp: { token: TOKEN, phoneNumberId: PHONE_NUMBER_ID },
    config: { PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 },
    build: { seed: true },
  });
  t = started;
  fake = started.whatsapp;
  mails = started.mails;
  await fillBankDetails(t.app);
  admin = await signInAdmin(t.app);
  const [pkg] = await t.app.db
    .insert(packages)
    .values({ name: "Refund Monthly", price: 250, duration: "1 Month", duration_months: 1, is_active: true })
    .returning();
  monthly = pkg.id;
});
afterAll(async () => {
  await t?.close();
});

/** A paid EFT order (marked paid by the owner): the payment and its new client. */
async function paidClient(name: string, email?: string) {
  const whatsapp = `0832${String(++n).padStart(6, "0")}`;
  const order = await t.app.inject({
    method: "POST",
    url: "/api/payments/eft",
    payload: { packageId: monthly, name, whatsapp, ...(email ? { email } : {}), immediateStartConsent: true },
    remoteAddress: `10.7.0.${n}`,
  });
  expect(order.statusCode, order.body).toBe(201);
  const [payment] = await t.app.db
    .select()
    .from(capturedPayments)
    .where(eq(capturedPayments.external_transaction_id, order.json().reference));
  expect((await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/mark-paid` })).statusCode).toBe(200);
  await t.app.outbox.drain();
  const [client] = await t.app.db
    .select()
    .from(clients)
    .where(
      eq(clients.id, (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, payment.id)))[0].client_id as string),
    );
  return { payment, client };
}

async function refund(paymentId: string, payload: Record<string, unknown>) {
  const response = await admin.call({ method: "POST", url: `/api/admin/payments/${paymentId}/refund`, payload });
  expect(response.statusCode, response.body).toBe(200);
  await t.app.outbox.drain();
  return response.json().data as { credit_note: string };
}

const refundRows = (clientId: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, REFUND_KIND), eq(outbox.client_id, clientId)));

describe("the refund message reaches the customer", () => {
  it("by e-mail: the SMTP sink gets the mail with the credit note's PDF attached", async () => {
    const { payment, client } = await paidClient("Naledi Sithole", "naledi.refund@example.co.za");
    await t.app.db.update(clients).set({ communication_method: "email" }).where(eq(clients.id, client.id));
    const { credit_note } = await refund(payment.id, { reason: "Cancelled within the cooling-off period" });
    const mail = await eventually(() => {
      const found = mails.find((m) => m.to.includes("naledi.refund@example.co.za") && m.raw.includes(`filename=${credit_note}.pdf`));
      if (!found) throw new Error("no refund mail yet");
      return found;
    });
    expect(mail.raw).toMatch(/Subject: .*refund of R250 \(credit note/);
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/i);
    const rows = await refundRows(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "email", status: "sent" });
  });

  it("a WhatsApp-only customer inside the 24-hour window: free text through the Cloud API", async () => {
    const { payment, client } = await paidClient("Sipho Ndlovu");
    await t.app.db.insert(whatsappWindows).values({ number: client.whatsapp, last_inbound_at: new Date() }).onConflictDoNothing();
    fake.messages.length = 0;
    const { credit_note } = await refund(payment.id, { amount: 100, reason: "Two days without service" });
    const [row] = await refundRows(client.id);
    expect(row).toMatchObject({ channel: "whatsapp", status: "sent", sent_via: "cloud-text" });
    const sent = fake.messages.filter((m) => m.to === client.whatsapp);
    expect(sent).toHaveLength(1);
    expect(sent[0].type).toBe("text");
    expect(sent[0].text).toMatch(/^Hi Sipho,\n/);
    expect(sent[0].text).toContain("We've refunded R100 of your payment");
    expect(sent[0].text).toContain(`Credit note ${credit_note}:`);
    expect(sent[0].text).toContain("Your line: it stays on as before, active until");
    expect(sent[0].text).not.toMatch(/e-?mail/i);
  });

  it("a WhatsApp-only customer outside the window: the kind's approved template, with the amount and credit note", async () => {
    fake.approve("refund_issued", "en", 3);
    const saved = await admin.call({
      method: "PUT",
      url: "/api/admin/whatsapp/templates/refund-issued",
      payload: { template_name: "refund_issued", language_code: "en", params: ["name", "amount", "credit_note"] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { payment, client } = await paidClient("Bongani Zulu");
    fake.messages.length = 0;
    const { credit_note } = await refund(payment.id, { reason: "Paid twice by mistake" });
    const [row] = await refundRows(client.id);
    expect(row).toMatchObject({ channel: "whatsapp", status: "sent" });
    const sent = fake.messages.filter((m) => m.to === client.whatsapp);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: "template",
      template: { name: "refund_issued", language: "en", parameters: ["Bongani", "R250", credit_note] },
    });
  });
});
