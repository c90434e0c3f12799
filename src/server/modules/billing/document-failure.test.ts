// A document that fails to render is not a message lost (issue 47): the receipt's invoice PDF or the
// refund's credit-note PDF failing (the PDF builder made to throw) leaves the e-mail pending for the
// outbox's next try, with the error on the row and in the log, and the mail goes with its PDF once
// the builder works again. Only a document that does not exist fails the message for good.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EmailTransport, OutgoingEmail } from "@/server/adapters/email";
import { capturedPayments, invoices, outbox, packages } from "@/server/db/schema";
import { type OutboxLog, OutboxWorker } from "@/server/jobs/outbox-worker";
import { enqueue } from "@/server/lib/outbox";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";
import { REFUND_KIND, renderAttachment } from "./service";

/** While set, the PDF builder throws it (as a font that will not load or a full disk would). */
const broken = vi.hoisted(() => ({ error: null as Error | null }));
vi.mock("./pdf", async (importOriginal) => {
  const real = await importOriginal<typeof import("./pdf")>();
  const failing =
    <A extends unknown[], R>(make: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (broken.error) throw broken.error;
      return make(...args);
    };
  return { ...real, invoicePdf: failing(real.invoicePdf), creditNotePdf: failing(real.creditNotePdf) };
});

let t: TestApp;
let admin: SignedIn;
let monthly: string;
let n = 0;
const sent: OutgoingEmail[] = [];
const logged: { level: string; message: string; details: Record<string, unknown> }[] = [];
const log: OutboxLog = {
  warn: (details, message) => void logged.push({ level: "warn", message, details: details as Record<string, unknown> }),
  error: (details, message) => void logged.push({ level: "error", message, details: details as Record<string, unknown> }),
};
let worker: OutboxWorker;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  await fillBankDetails(t.app);
  admin = await signInAdmin(t.app);
  const [pkg] = await t.app.db
    .insert(packages)
    .values({ name: "PDF Monthly", price: 250, duration: "1 Month", duration_months: 1, is_active: true })
    .returning();
  monthly = pkg.id;
  const capture: EmailTransport = { name: "capture", send: async (m) => void sent.push(m), verify: async () => {}, close() {} };
  worker = new OutboxWorker(t.app.db, { email: capture, documents: (ref) => renderAttachment(t.app.db, ref) }, undefined, { log });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  broken.error = null;
  sent.length = 0;
  logged.length = 0;
});

/** A paid EFT order with an e-mail address: the payment and its invoice. */
async function paidOrder() {
  const order = await t.app.inject({
    method: "POST",
    url: "/api/payments/eft",
    payload: {
      packageId: monthly,
      name: "Pat Buyer",
      whatsapp: `0835${String(++n).padStart(6, "0")}`,
      email: `pdf${n}@example.co.za`,
      immediateStartConsent: true,
    },
    remoteAddress: `10.8.0.${n}`,
  });
  expect(order.statusCode, order.body).toBe(201);
  const [payment] = await t.app.db
    .select()
    .from(capturedPayments)
    .where(eq(capturedPayments.external_transaction_id, order.json().reference));
  expect((await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/mark-paid` })).statusCode).toBe(200);
  const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.payment_id, payment.id));
  return { payment, invoice };
}

const rowOf = async (dedupeKey: string) => (await t.app.db.select().from(outbox).where(eq(outbox.dedupe_key, dedupeKey)))[0];
const makeDue = (id: string) => t.app.db.update(outbox).set({ next_attempt_at: new Date() }).where(eq(outbox.id, id));

describe("a document that fails to render", () => {
  it("the receipt whose invoice PDF fails waits for the next try (logged, the error on the row), then goes with its PDF", async () => {
    const { payment, invoice } = await paidOrder();
    broken.error = new Error("font file unreadable");
    await worker.drain();
    let receipt = await rowOf(`receipt:${payment.id}`);
    expect(receipt).toMatchObject({ status: "pending", attempts: 1, attachment: `invoice:${invoice.number}` });
    expect(receipt.last_error).toBe(
      `the attached document invoice:${invoice.number} could not be made (tried again later): font file unreadable`,
    );
    expect(receipt.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(sent.filter((m) => m.subject === receipt.subject)).toEqual([]);
    expect(logged).toContainEqual({
      level: "warn",
      message: "outbox message not sent: it is tried again",
      details: expect.objectContaining({ outbox: receipt.id, final: false }),
    });

    broken.error = null;
    await makeDue(receipt.id);
    await worker.drain();
    receipt = await rowOf(`receipt:${payment.id}`);
    expect(receipt).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    const mails = sent.filter((m) => m.to === receipt.recipient && m.subject === receipt.subject);
    expect(mails).toHaveLength(1);
    expect(mails[0].attachments?.[0]).toMatchObject({ filename: `${invoice.number}.pdf`, contentType: "application/pdf" });
  });

  it("the refund message whose credit-note PDF fails waits for the next try, then goes with its PDF", async () => {
    const { payment } = await paidOrder();
    await worker.drain();
    broken.error = new Error("out of memory");
    const refund = await admin.call({ method: "POST", url: `/api/admin/payments/${payment.id}/refund`, payload: { reason: "Cancelled" } });
    expect(refund.statusCode, refund.body).toBe(200);
    const creditNote = refund.json().data.credit_note as string;
    await worker.drain();
    const [row] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.attachment, `credit_note:${creditNote}`));
    expect(row).toMatchObject({ kind: REFUND_KIND, status: "pending", attempts: 1 });
    expect(row.last_error).toContain("out of memory");

    broken.error = null;
    await makeDue(row.id);
    await worker.drain();
    const [after] = await t.app.db.select().from(outbox).where(eq(outbox.id, row.id));
    expect(after.status).toBe("sent");
    expect(sent.find((m) => m.to === row.recipient && m.subject === row.subject)?.attachments?.[0]).toMatchObject({
      filename: `${creditNote}.pdf`,
    });
  });

  it("a message whose document does not exist fails at once, saying so (sending again cannot make it)", async () => {
    await enqueue(t.app.db, {
      channel: "email",
      recipient: "nobody@example.co.za",
      subject: "Your invoice",
      body: "Attached.",
      kind: "test-missing-document",
      attachment: "invoice:INV-999999",
      dedupe_key: "test-missing-document",
    });
    await worker.drain();
    const row = await rowOf("test-missing-document");
    expect(row).toMatchObject({ status: "failed", attempts: 1, last_error: "the attached document invoice:INV-999999 does not exist" });
    expect(logged).toContainEqual(expect.objectContaining({ level: "warn", message: "outbox message given up on" }));
  });
});
