// EFT: a reference and the bank details from the settings, for a priced order and its payer;
// an admin marks it paid when the money shows (settle.ts does the rest).
import { randomInt } from "node:crypto";
import { and, eq, gte, sql } from "drizzle-orm";
import { capturedPayments, clients, leads } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { AppError, conflict, notFound } from "@/server/lib/errors";
import { storedNumber } from "@/server/lib/identity";
import { enqueue } from "@/server/lib/outbox";
import { alertOwner, eftOrderAlert } from "@/server/lib/owner-alerts";
import { checkNewLineMac } from "@/server/modules/panel/mac-change";
import { SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { EFT_INSTEAD_NOT_FAILED_MESSAGE, EFT_UNAVAILABLE_MESSAGE, eftReady } from "@/shared/constants";
import { isValidEmail } from "@/shared/contact";
import { eftRequestSchema } from "@/shared/schemas";
import { type OrderInput, type Payer, type PayerSession, type PaymentsContext, validationError } from "./context";
import { insertPayment } from "./insert-payment";
import { type EftBankDetails, eftEmail } from "./messages";
import { resolvePayer } from "./payer";
import { type PricedOrder, priceOrder } from "./pricing";

export interface EftResponse {
  success: true;
  reference: string;
  amount: number;
  package_name: string;
  bank: EftBankDetails;
}

/** EFT reference characters: no 0/O, 1/I/L look-alikes, so it survives being typed into a banking app. */
export const EFT_REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const EFT_CODE_LENGTH = 6;
const EFT_REFERENCE_ATTEMPTS = 10;
/** An unpaid EFT reference for the same package is given again within this time. */
const EFT_REUSE_WITHIN_MS = 14 * 86_400_000;

function randomEftCode(): string {
  let code = "";
  for (let i = 0; i < EFT_CODE_LENGTH; i++) code += EFT_REFERENCE_ALPHABET[randomInt(EFT_REFERENCE_ALPHABET.length)];
  return code;
}

/** POST /api/payments/eft. */
export async function createEft(ctx: PaymentsContext, body: unknown, session: PayerSession = { clientId: null }): Promise<EftResponse> {
  const parsed = eftRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return eftFor(ctx, parsed.data, session, body);
}

/** An EFT reference for a package, for the signed-in client or a named payer (see paylinkFor). */
export async function eftFor(ctx: PaymentsContext, input: OrderInput, session: PayerSession, body: unknown = input): Promise<EftResponse> {
  const business = await loadBusiness(ctx.app);
  const s = business.settings;
  // Placeholder bank details are never shown (nor mailed): paying into them would be lost.
  if (!eftReady(s)) throw conflict(EFT_UNAVAILABLE_MESSAGE);
  const order = await priceOrder(ctx, input, session);
  await checkNewLineMac(ctx.app, input, session.clientId);
  const payer = await resolvePayer(ctx, input, session, order.pkg.name, body);
  return issueEft(ctx, business, order, payer, input);
}

/**
 * POST /api/payments/:ref/eft, the failed card payment's "Pay by EFT instead": a reference for
 * the same package, coupon and payer as the card payment that failed or was cancelled (the payer
 * proved who they are, or not, when they made it), so the customer pays on without typing it
 * all again. Asking again answers the same reference (issueEft reuses an open one).
 */
export async function eftInstead(ctx: PaymentsContext, ref: string): Promise<EftResponse> {
  const { db } = ctx;
  const [card] = await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
  if (!card || card.provider === "eft") throw notFound("No such card payment.");
  if (card.status !== "failed" && card.status !== "cancelled") throw conflict(EFT_INSTEAD_NOT_FAILED_MESSAGE);
  const business = await loadBusiness(ctx.app);
  if (!eftReady(business.settings)) throw conflict(EFT_UNAVAILABLE_MESSAGE);
  if (!card.package_id) throw conflict(EFT_INSTEAD_NOT_FAILED_MESSAGE);
  let payer: Payer;
  if (card.client_id) {
    const [client] = await db.select().from(clients).where(eq(clients.id, card.client_id));
    if (!client) throw notFound("No such card payment.");
    if (client.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
    payer = { client, leadId: null, email: card.client_email || client.email, name: client.full_name };
  } else {
    const [lead] = card.lead_id ? await db.select().from(leads).where(eq(leads.id, card.lead_id)) : [];
    if (!lead) throw notFound("No such card payment.");
    payer = { client: null, leadId: lead.id, email: card.client_email || lead.email, name: lead.name };
  }
  const input: OrderInput = {
    packageId: card.package_id,
    coupon: card.coupon_code || undefined,
    whatsapp: payer.client?.whatsapp ?? undefined,
    immediateStartConsent: card.immediate_start_consent_at !== null,
    company: card.buyer_company,
    address: card.buyer_address,
    vatNumber: card.buyer_vat_number,
  };
  const order = await priceOrder(ctx, input, { clientId: card.client_id });
  return issueEft(ctx, business, order, payer, input);
}

/** The EFT reference for a priced order and its payer, with the e-mail of the details (once). */
async function issueEft(
  ctx: PaymentsContext,
  business: BusinessProfile,
  order: PricedOrder,
  payer: Payer,
  input: OrderInput,
): Promise<EftResponse> {
  const { app, db } = ctx;
  const eftCode = ctx.options.eftCode ?? randomEftCode;
  const { pkg, price } = order;
  const email = payer.email && isValidEmail(payer.email) ? payer.email.trim() : "";
  const { prefix, bank } = eftPayee(business);
  const contact = [payer.name, email, input.whatsapp ?? payer.client?.whatsapp].filter(Boolean).join(", ");

  // Asking again for the same package answers the reference already given (still unpaid, same
  // price): one transfer to match, not a pile of pending references for one renewal.
  const [open] = await db
    .select({ reference: capturedPayments.external_transaction_id })
    .from(capturedPayments)
    .where(
      and(
        eq(capturedPayments.provider, "eft"),
        eq(capturedPayments.status, "pending"),
        eq(capturedPayments.package_id, pkg.id),
        eq(capturedPayments.amount, price),
        payer.client ? eq(capturedPayments.client_id, payer.client.id) : eq(capturedPayments.lead_id, payer.leadId as string),
        gte(capturedPayments.created_at, new Date(Date.now() - EFT_REUSE_WITHIN_MS)),
      ),
    )
    .orderBy(sql`${capturedPayments.created_at} desc`)
    .limit(1);
  if (open) return { success: true, reference: open.reference, amount: price, package_name: pkg.name, bank };

  for (let attempt = 0; attempt < EFT_REFERENCE_ATTEMPTS; attempt++) {
    const reference = `${prefix}-${eftCode()}`;
    const created = await db.transaction(async (tx) => {
      const row = await insertPayment(tx, {
        provider: "eft",
        reference,
        order,
        payer,
        input,
        email,
        notes: contact ? `EFT details given to ${contact}` : "",
      });
      if (!row) return false;
      // The owner hears of the new order once, to confirm it when the money shows (lib/owner-alerts.ts).
      const alerted = await alertOwner(
        app,
        tx,
        eftOrderAlert(business.publicUrl, {
          paymentId: row.id,
          reference,
          amount: price,
          packageName: pkg.name,
          name: payer.name,
          whatsapp: input.whatsapp ? storedNumber(input.whatsapp) : (payer.client?.whatsapp ?? ""),
          email,
        }),
      );
      if (email) {
        const message = eftEmail(business, { reference, packageName: pkg.name, amount: price, bank, name: payer.name });
        await enqueue(tx, {
          channel: "email",
          recipient: email,
          subject: message.subject,
          body: message.body,
          kind: "eft-details",
          client_id: payer.client?.id ?? null,
          lead_id: payer.leadId,
          dedupe_key: `eft:${row.id}`,
        });
      }
      return { alerted };
    });
    if (created) {
      if (email || created.alerted) app.outbox.nudge();
      return { success: true, reference, amount: price, package_name: pkg.name, bank };
    }
  }
  throw new AppError(503, "unavailable", "We could not make a payment reference just now. Please try again.");
}

/** The shop's bank details from its settings, and the prefix of its EFT references (A–Z and 0–9, at most 8; "SD" when none). */
export function eftPayee(business: BusinessProfile): { prefix: string; bank: EftBankDetails } {
  const s = business.settings;
  const prefix =
    (s.eft_reference_prefix ?? "")
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "")
      .slice(0, 8) || "SD";
  const bank: EftBankDetails = {
    bank_name: s.eft_bank_name ?? "",
    account_name: s.eft_account_name ?? "",
    account_number: s.eft_account_number ?? "",
    branch_code: s.eft_branch_code ?? "",
    account_type: s.eft_account_type ?? "",
  };
  return { prefix, bank };
}
