// Card pay links, the provider webhook, payment status and EFT references.
// Rules (docs/architecture.md, "Payments"): the server prices the package (special included)
// and never trusts an amount from the browser; every payment belongs to a person (the signed-in
// client, or a lead made from the payer's name and WhatsApp number, linked to the client they
// already are); a payment is marked paid only after a verified callback (or our own status
// query) AND the provider's own status shows it paid for the amount we priced; each payment is
// captured once, and settled (account, term, receipt) in the same transaction (settle.ts).

import { randomInt } from "node:crypto";
import { and, eq, gte, inArray, like, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { createPayfastSourceCheck } from "@/server/adapters/payments/payfast-source";
import {
  type CallbackRequest,
  type Checkout,
  type HostedProvider,
  type HostedProviderName,
  NotificationRefused,
  type NotificationRequest,
  type PaylinkStatusResult,
  PaymentProviderError,
  type ProviderNotification,
  statusFromProvider,
} from "@/server/adapters/payments/provider";
import type { SandboxOutcome, SandboxPaylink } from "@/server/adapters/payments/sandbox";
import {
  type ActiveProvider,
  providerKindFor,
  selectHostedProviders,
  selectPaymentProvider,
} from "@/server/adapters/payments/select-provider";
import { capturedPayments, clients, leads, outbox, packages, provisioningJobs } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { knownFields, storablePayload } from "@/server/lib/clean-input";
import { AppError, badRequest, conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { matchContact, storedNumber } from "@/server/lib/identity";
import { loadRules } from "@/server/lib/lifecycle";
import { shopLoginChannel } from "@/server/lib/login-channel";
import { appendNote } from "@/server/lib/notes";
import { enqueue } from "@/server/lib/outbox";
import { alertOwner, eftOrderAlert } from "@/server/lib/owner-alerts";
import { PACKAGE_UNAVAILABLE_MESSAGE, unavailablePackages } from "@/server/lib/sellable";
import {
  codeRefusal,
  codeRoute,
  consumeCode,
  consumeProvedReply,
  type Destination,
  issueCode,
  issueReplyCode,
  maskedDestination,
  replyWebhookReady,
} from "@/server/lib/verification";
import { priceCoupon } from "@/server/modules/billing/coupons";
import { listActiveSpecials, specialsAt } from "@/server/modules/catalogue/service";
import { checkNewLineMac } from "@/server/modules/panel/mac-change";
import type {
  PaymentMessage,
  PaymentMessageKind,
  PaymentMessageState,
  PaymentMethods,
  PaymentOutcome,
  PaymentStatusView,
} from "@/shared/api";
import { type CouponQuote, couponQuoteSchema } from "@/shared/billing";
import { SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { EFT_INSTEAD_NOT_FAILED_MESSAGE, EFT_UNAVAILABLE_MESSAGE, eftReady } from "@/shared/constants";
import { isValidEmail } from "@/shared/contact";
import { saDay } from "@/shared/dates";
import { toCents } from "@/shared/money";
import { findSpecial } from "@/shared/pricing";
import {
  CODE_ROUTE_MESSAGES,
  eftRequestSchema,
  type IdentifyResponse,
  identifyRequestSchema,
  PAYER_NAME_MESSAGE,
  PAYER_WHATSAPP_MESSAGE,
  PAYMENT_METHOD_MESSAGE,
  paylinkRequestSchema,
} from "@/shared/schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { type EftBankDetails, eftEmail } from "./messages";
import { sentTo, settlePayment } from "./settle";

// ---- response shapes (the contract the web app reads) -------------------------------------

export interface PaylinkResponse {
  success: true;
  paylinkUrl: string;
  externalTransactionID: string;
}

export interface EftResponse {
  success: true;
  reference: string;
  amount: number;
  package_name: string;
  bank: EftBankDetails;
}

// ---- constants ------------------------------------------------------------------------------

/** Spec §7: 'a fixed product prefix, underscore, a timestamp and random text'. */
export const TRANSACTION_PREFIX = "STRMDSK";
/** EFT reference characters: no 0/O, 1/I/L look-alikes, so it survives being typed into a banking app. */
export const EFT_REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const EFT_CODE_LENGTH = 6;
const EFT_REFERENCE_ATTEMPTS = 10;
/** An unpaid EFT reference for the same package is given again within this time. */
const EFT_REUSE_WITHIN_MS = 14 * 86_400_000;
/** A pending card payment is re-checked with the provider at most this often when its status is read. */
const RECONCILE_EVERY_MS = 10_000;
const RECONCILE_MEMORY = 1000;

export const PAYLINK_FAILED_MESSAGE = "Failed to create payment link";

const callbackSchema = z.looseObject({
  paylinkID: z.string().min(1).max(200),
  status: z.string().min(1).max(50),
  externalTransactionID: z.string().min(1).max(200),
  responseCode: z.union([z.string(), z.number()]).optional(),
});

type Payment = typeof capturedPayments.$inferSelect;
export type SandboxAction = "pay" | "decline" | "cancel";

const SANDBOX_OUTCOMES: Record<SandboxAction, SandboxOutcome> = { pay: "SUCCESS", decline: "FAILURE", cancel: "CANCELLED" };
const RESULT_PAGES: Record<string, string> = { SUCCESS: "success", FAILURE: "failure", CANCELLED: "cancel" };

/** Card payments are off: a real shop with no card provider configured (EFT still works). */
export const CARD_OFF_MESSAGE = "Card payments are not available at the moment. Please pay by EFT instead.";
export const NOT_YOUR_ACCOUNT = "That is not your account.";
export const NO_CODE_FOR_THIS_PAYER =
  "There is no code for this number or e-mail address. Continue as a new customer, or ask for a code again.";
/** The code of the payer's wa.me link, used before their WhatsApp message with it reached us. */
export const REPLY_NOT_RECEIVED =
  "We have not received your WhatsApp message with this code yet. Send it from your number, then try again.";
/** A payer's open lead from this long ago is reused instead of making another. */
const REUSE_LEAD_WITHIN_MS = 24 * 3_600_000;

/** Who pays: the signed-in client, or a person by name and WhatsApp number. */
export interface PayerSession {
  /** the signed-in client's id, when there is a client session */
  clientId: string | null;
  ip?: string;
  /** the payer proved with a one-time code that they are this client: the route signs them in */
  onProven?: (clientId: string) => Promise<void>;
}

interface Payer {
  client: ClientRow | null;
  leadId: string | null;
  email: string;
  name: string;
}

export interface PaymentsServiceOptions {
  /** the six reference characters of an EFT reference (tests force collisions) */
  eftCode?: () => string;
}

/** Where each hosted provider sends its notifications (the routes in routes.ts). */
export const NOTIFY_PATHS: Record<HostedProviderName, string> = {
  payfast: "/api/payments/payfast/itn",
  ozow: "/api/payments/ozow/notify",
  yoco: "/api/payments/yoco/webhook",
};
const notifyPath = (name: HostedProviderName) => NOTIFY_PATHS[name];

/**
 * Notifications answered before they are processed (PayFast's ITN is answered 200 at once):
 * the work still running, so a test (or a shutdown) can wait for it.
 */
const notificationsInFlight = new Set<Promise<void>>();

/** Resolves once every notification being processed after its answer has finished. */
export async function paymentNotificationsSettled(): Promise<void> {
  while (notificationsInFlight.size) await Promise.allSettled([...notificationsInFlight]);
}

export function makeTransactionId(now = Date.now()): string {
  let random = "";
  for (let i = 0; i < 10; i++) random += randomInt(36).toString(36);
  return `${TRANSACTION_PREFIX}_${now}_${random}`;
}

function randomEftCode(): string {
  let code = "";
  for (let i = 0; i < EFT_CODE_LENGTH; i++) code += EFT_REFERENCE_ALPHABET[randomInt(EFT_REFERENCE_ALPHABET.length)];
  return code;
}

/** First message of a failed safeParse, with every field's message. */
function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    if (!fields[key]) fields[key] = issue.message;
  }
  return badRequest(error.issues[0]?.message ?? "Please check the information you entered.", fields);
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * How cards are taken: iKhokha when its keys are set; else the sandbox checkout, but real money
 * only in production: an https shop with no card provider takes no test payments unless
 * PAYMENTS_SANDBOX=on says it is a test shop.
 */
export function cardModeFor(config: FastifyInstance["config"]): PaymentMethods["card"] {
  if (providerKindFor(config) === "ikhokha") return "ikhokha";
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
  return config.PAYMENTS_SANDBOX === "on" || (config.PAYMENTS_SANDBOX !== "off" && !publicUrl.startsWith("https://")) ? "sandbox" : "off";
}

/**
 * Which ways to pay are on (GET /api/payments/methods; the reminders name them too): card, the
 * hosted providers, EFT; and how the login will go (lib/login-channel.ts), for the pages' promises.
 */
export async function paymentMethods(app: FastifyInstance): Promise<PaymentMethods> {
  return {
    card: cardModeFor(app.config),
    eft: eftReady((await loadBusiness(app)).settings),
    providers: [...selectHostedProviders(app.config).values()].map((p) => ({ id: p.name, name: p.label })),
    loginChannel: await shopLoginChannel(app.db, app.outbox.cloudApi),
  };
}

export function createPaymentsService(app: FastifyInstance, options: PaymentsServiceOptions = {}) {
  const { db } = app;
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
  const active: ActiveProvider = selectPaymentProvider(app.config, db, publicUrl);
  const provider = active.provider;
  const cardMode = cardModeFor(app.config);
  /** PayFast, Ozow, Yoco: each the owner turned on (docs/payment-providers.md) */
  const hosted = selectHostedProviders(app.config);
  /** where a PayFast ITN may come from: PayFast's hosts, or PAYFAST_VALID_IPS */
  const payfastSource = createPayfastSourceCheck({ validIps: app.config.PAYFAST_VALID_IPS, resolve: app.resolveHost });
  const eftCode = options.eftCode ?? randomEftCode;
  const lastReconciled = new Map<string, number>();

  /** The active package with today's special applied (same window rule as GET /api/specials). */
  async function priceActivePackage(packageId: string) {
    const [pkg] = await db
      .select()
      .from(packages)
      .where(and(eq(packages.id, packageId), eq(packages.is_active, true)))
      .limit(1);
    if (!pkg) {
      const message = "That package is not available. Please choose another package.";
      throw badRequest(message, { packageId: message });
    }
    // No money for a line that cannot be made (lib/sellable.ts): refused before any payment row, the owner told.
    if ((await unavailablePackages(db, app.provisioning.panel.mode)).has(pkg.id)) {
      await tellOwnerUnsellable(pkg);
      throw new AppError(409, "package_unavailable", PACKAGE_UNAVAILABLE_MESSAGE, { packageId: PACKAGE_UNAVAILABLE_MESSAGE });
    }
    const special = findSpecial(pkg, specialsAt(await listActiveSpecials(db), Date.now()));
    const price = special ? special.special_price : pkg.price;
    const amountCents = toCents(price);
    if (amountCents <= 0) throw badRequest("This package is free: there is nothing to pay.", { packageId: "This package is free" });
    return { pkg, price: amountCents / 100, amountCents };
  }

  /** Once a day per package: a customer tried to buy it, and the panel has no package for it. */
  async function tellOwnerUnsellable(pkg: { id: string; name: string }) {
    const queued = await alertOwner(app, db, {
      cause: "unsellable-package",
      dedupeKey: `unsellable-package:${pkg.id}:${saDay(new Date())}`,
      subject: `A customer could not buy ${pkg.name}`,
      body: [
        `A customer tried to pay for ${pkg.name}, but no panel package is mapped to it, so no line could be made. They were told it is not available yet and asked to choose another package or contact you.`,
        "",
        `Map it to one of your panel's packages so it can be sold again: ${publicUrl}/admin/panel`,
      ].join("\n"),
    }).catch((error) => {
      app.log.warn({ err: error }, "unsellable package alert not queued");
      return 0;
    });
    if (queued) app.outbox.nudge();
  }

  /**
   * The package's price today less the coupon, when one is given: a refused coupon is a 400 on
   * `coupon` before anything is written. The coupon's one-per-customer rule counts the signed-in
   * client, else the client the WhatsApp number or e-mail already belongs to.
   */
  async function priceOrder(input: OrderInput, session: PayerSession) {
    const priced = await priceActivePackage(input.packageId);
    if (!input.coupon) return { ...priced, coupon: null, discountCents: 0 };
    let clientId = session.clientId ?? null;
    // One per customer counts whoever the number or address may be: a guess only ever refuses here.
    if (!clientId && input.whatsapp)
      clientId = (await matchContact(db, { whatsapp: input.whatsapp, email: input.email ?? "" }))?.client.id ?? null;
    const { coupon, discountCents } = await priceCoupon(db, input.coupon, {
      packageId: priced.pkg.id,
      listCents: priced.amountCents,
      customer: { clientId, whatsapp: input.whatsapp },
    });
    const amountCents = priced.amountCents - discountCents;
    return { pkg: priced.pkg, price: amountCents / 100, amountCents, coupon, discountCents };
  }

  /** POST /api/payments/coupon: what a coupon does to a package's price, for the review step. */
  async function checkCoupon(body: unknown, session: PayerSession = { clientId: null }): Promise<CouponQuote> {
    const parsed = couponQuoteSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const order = await priceOrder(parsed.data, session);
    return {
      code: order.coupon?.code ?? "",
      discount: order.discountCents / 100,
      price: order.price,
      list_price: (order.amountCents + order.discountCents) / 100,
    };
  }

  /** The order's coupon and buyer details, as the payment row keeps them. */
  const orderColumns = (order: Awaited<ReturnType<typeof priceOrder>>, input: OrderInput) => ({
    coupon_id: order.coupon?.id ?? null,
    coupon_code: order.coupon?.code ?? "",
    discount: order.discountCents / 100,
    buyer_company: input.company ?? "",
    buyer_address: input.address ?? "",
    buyer_vat_number: input.vatNumber ?? "",
    line_type: input.lineType ?? "m3u",
    line_mac: input.mac ?? "",
  });

  // ---- card pay links -----------------------------------------------------------------------

  /**
   * The person a payment is for (lib/identity.ts says why it is never guessed). A signed-in
   * client pays for themselves (a suspended one cannot: 409). Anyone else gives a name and
   * WhatsApp number and becomes a lead (their open lead of the last day is reused). The money
   * goes to the client their number or e-mail belongs to only with the one-time code sent to
   * that client (`verificationCode`, from POST /api/payments/identify); without it the lead is
   * only flagged `possible_duplicate_of` that client, and settling makes a new client for the
   * owner to merge or dismiss.
   */
  async function resolvePayer(
    input: { name?: string; whatsapp?: string; email?: string; clientId?: string; verificationCode?: string },
    session: PayerSession,
    pkgName: string,
    body: unknown,
  ): Promise<Payer> {
    if (input.clientId && input.clientId !== session.clientId) throw badRequest(NOT_YOUR_ACCOUNT, { clientId: NOT_YOUR_ACCOUNT });
    if (session.clientId) {
      const [client] = await db.select().from(clients).where(eq(clients.id, session.clientId));
      if (!client) throw badRequest(NOT_YOUR_ACCOUNT, { clientId: NOT_YOUR_ACCOUNT });
      if (client.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
      return { client, leadId: null, email: input.email ?? client.email, name: client.full_name };
    }
    const fields: Record<string, string> = {};
    if (!input.name) fields.name = PAYER_NAME_MESSAGE;
    if (!input.whatsapp) fields.whatsapp = PAYER_WHATSAPP_MESSAGE;
    if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0], fields);
    const name = input.name as string;
    const whatsapp = storedNumber(input.whatsapp as string);
    const email = input.email ?? "";

    const match = await matchContact(db, { whatsapp, email });
    let proven: ClientRow | null = null;
    if (input.verificationCode) {
      if (!match) throw badRequest(NO_CODE_FOR_THIS_PAYER, { verificationCode: NO_CODE_FOR_THIS_PAYER });
      const ask = { purpose: "payment-identify" as const, clientId: match.client.id, code: input.verificationCode as string };
      // the code of their wa.me link once their message proved it, else the code sent to them
      const check = await db.transaction(async (tx) => (await consumeProvedReply(tx, ask)) ?? consumeCode(tx, ask));
      if (check === "waiting") throw badRequest(REPLY_NOT_RECEIVED, { verificationCode: REPLY_NOT_RECEIVED });
      if (!check.ok) throw codeRefusal(check, "verificationCode");
      proven = match.client;
      if (proven.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
      await session.onProven?.(proven.id);
    }
    // The number is one client's own: a suspended client does not start a second account with it.
    if (!proven && match?.by === "whatsapp" && match.client.status === "suspended") {
      throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
    }
    const suspect = proven ? null : (match?.client.id ?? null);
    const [open] = await db
      .select({ id: leads.id })
      .from(leads)
      .where(
        and(
          eq(leads.whatsapp_digits, whatsapp),
          eq(leads.form_type, "order"),
          inArray(leads.status, ["new", "contacted"]),
          gte(leads.created_at, new Date(Date.now() - REUSE_LEAD_WITHIN_MS)),
        ),
      )
      .orderBy(sql`${leads.created_at} desc`)
      .limit(1);
    if (open) {
      await db
        .update(leads)
        .set({
          name,
          email: email || sql`${leads.email}`,
          package_name: pkgName,
          client_id: proven?.id ?? null,
          possible_duplicate_of: suspect,
          updated_at: new Date(),
        })
        .where(eq(leads.id, open.id));
      return { client: proven, leadId: open.id, email, name };
    }
    const [lead] = await db
      .insert(leads)
      .values({
        form_type: "order",
        name,
        email,
        whatsapp,
        whatsapp_digits: whatsapp,
        package_name: pkgName,
        duration: "",
        client_id: proven?.id ?? null,
        possible_duplicate_of: suspect,
        // the request's own fields only (an amount, or the code, is not kept)
        payload: knownFields(
          storablePayload(body),
          Object.keys(paylinkRequestSchema.shape).filter((key) => key !== "verificationCode"),
        ),
        ip: session.ip ?? "",
        notes: "From a payment started on the site.",
      })
      .returning({ id: leads.id });
    return { client: proven, leadId: lead.id, email, name };
  }

  /**
   * POST /api/payments/identify: whether the number (else the e-mail address) is a client's; if
   * so a one-time code goes to that client's recorded channels (never to what was typed), and
   * the review step asks for it. A person who cannot give it continues as a new customer.
   */
  async function identify(body: unknown, session: PayerSession = { clientId: null }): Promise<IdentifyResponse> {
    const parsed = identifyRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const match = await matchContact(db, parsed.data);
    if (!match) return { match: false, sentTo: [] };
    const client = match.client;
    const recorded: Destination[] = [];
    const number = toStoredWhatsApp(client.whatsapp);
    if (number) recorded.push({ channel: "whatsapp", recipient: number });
    if (client.email && isValidEmail(client.email)) recorded.push({ channel: "email", recipient: client.email.trim().toLowerCase() });
    // Only where a code arrives now (lib/verification.ts). None: they sign in, or go on as a new customer.
    const to = await codeRoute(db, recorded, app.outbox.codeTransports);
    const business = await loadBusiness(app);
    // Or they write a code to us from the client's recorded number (issue 41), when the webhook is set up.
    const waLink = number
      ? await issueReplyCode(db, business, replyWebhookReady(app.config), {
          purpose: "payment-identify",
          number,
          clientId: client.id,
          requester: `ip:${session.ip ?? "unknown"}`,
        })
      : null;
    const link = waLink ? { waLink } : {};
    if (!to.length) return { match: true, by: match.by, sentTo: [], message: CODE_ROUTE_MESSAGES.identify, ...link };
    await issueCode(db, business, {
      purpose: "payment-identify",
      to,
      clientId: client.id,
      requester: `ip:${session.ip ?? "unknown"}`,
      name: client.full_name,
    });
    app.outbox.nudge();
    return {
      match: true,
      by: match.by,
      sentTo: to.map(maskedDestination),
      ...link,
    };
  }

  async function createPaylink(body: unknown, session: PayerSession = { clientId: null }): Promise<PaylinkResponse> {
    const parsed = paylinkRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return paylinkFor(parsed.data, session, body);
  }

  /** A pay link for a package. `input.immediateStartConsent` is the payer's ECT s44 consent (a renewal from the portal has none). */
  async function paylinkFor(input: OrderInput, session: PayerSession, body: unknown = input): Promise<PaylinkResponse> {
    if (input.method && input.method !== "card") return checkoutFor(input.method, input, session, body);
    if (cardMode === "off") throw new AppError(409, "card_payments_off", CARD_OFF_MESSAGE);
    const order = await priceOrder(input, session);
    const { pkg, price, amountCents } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(input, session, pkg.name, body);

    const ref = makeTransactionId();
    const description = `${pkg.name} IPTV Subscription`;
    const [payment] = await db
      .insert(capturedPayments)
      .values({
        provider: provider.name,
        external_transaction_id: ref,
        amount: price,
        currency: "ZAR",
        package_id: pkg.id,
        package_name: pkg.name,
        description,
        client_id: payer.client?.id ?? null,
        lead_id: payer.leadId,
        client_email: payer.email,
        immediate_start_consent_at: input.immediateStartConsent ? new Date() : null,
        status: "pending",
        ...orderColumns(order, input),
      })
      .returning({ id: capturedPayments.id });

    const q = `?ref=${encodeURIComponent(ref)}`;
    try {
      const link = await provider.createPaylink({
        amountCents,
        currency: "ZAR",
        description,
        externalTransactionID: ref,
        urls: {
          callbackUrl: `${publicUrl}/api/payments/webhook/${provider.name}`,
          successPageUrl: `${publicUrl}/payment/success${q}`,
          failurePageUrl: `${publicUrl}/payment/failure${q}`,
          cancelUrl: `${publicUrl}/payment/cancel${q}`,
        },
      });
      await db
        .update(capturedPayments)
        .set({ provider_reference: link.paylinkID, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { success: true, paylinkUrl: link.paylinkUrl, externalTransactionID: ref };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      app.log.error({ err: error, ref }, "payment provider failed to create a pay link");
      await db
        .update(capturedPayments)
        .set({ status: "failed", notes: `Pay link not created: ${reason}`.slice(0, 2000), updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
    }
  }

  // ---- hosted providers: PayFast, Ozow, Yoco ----------------------------------------------------

  function hostedOrRefuse(name: string): HostedProvider {
    const found = hosted.get(name as HostedProviderName);
    if (!found) throw badRequest(PAYMENT_METHOD_MESSAGE, { method: PAYMENT_METHOD_MESSAGE });
    return found;
  }

  /** What the provider's checkout is started with, for a payment row (the same every time it is asked). */
  function checkoutInput(payment: Pick<Payment, "external_transaction_id" | "amount" | "description" | "provider">) {
    const ref = payment.external_transaction_id;
    const q = `?ref=${encodeURIComponent(ref)}`;
    return {
      amountCents: toCents(payment.amount),
      description: payment.description,
      reference: ref,
      urls: {
        notifyUrl: `${publicUrl}${notifyPath(payment.provider as HostedProviderName)}`,
        successUrl: `${publicUrl}/payment/success${q}`,
        failureUrl: `${publicUrl}/payment/failure${q}`,
        cancelUrl: `${publicUrl}/payment/cancel${q}`,
      },
    };
  }

  /**
   * A pay link through PayFast, Ozow or Yoco: the same pricing, payer and pending row as a card
   * pay link, then the provider's checkout. Yoco makes a checkout by API and gives its URL; PayFast
   * and Ozow take a signed form post, which our hand-off page (/api/payments/checkout/:ref) sends.
   */
  async function checkoutFor(method: string, input: OrderInput, session: PayerSession, body: unknown): Promise<PaylinkResponse> {
    const chosen = hostedOrRefuse(method);
    const order = await priceOrder(input, session);
    const { pkg, price } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(input, session, pkg.name, body);
    const ref = makeTransactionId();
    const [payment] = await db
      .insert(capturedPayments)
      .values({
        provider: chosen.name,
        external_transaction_id: ref,
        amount: price,
        currency: "ZAR",
        package_id: pkg.id,
        package_name: pkg.name,
        description: `${pkg.name} IPTV Subscription`,
        client_id: payer.client?.id ?? null,
        lead_id: payer.leadId,
        client_email: payer.email,
        immediate_start_consent_at: input.immediateStartConsent ? new Date() : null,
        status: "pending",
        ...orderColumns(order, input),
      })
      .returning();
    try {
      const checkout = await chosen.startCheckout(checkoutInput(payment));
      if (checkout.kind === "redirect") {
        await db
          .update(capturedPayments)
          .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
          .where(eq(capturedPayments.id, payment.id));
        return { success: true, paylinkUrl: checkout.url, externalTransactionID: ref };
      }
      return { success: true, paylinkUrl: `${publicUrl}/api/payments/checkout/${encodeURIComponent(ref)}`, externalTransactionID: ref };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      app.log.error({ err: error, ref, provider: chosen.name }, "payment provider failed to start a checkout");
      await db
        .update(capturedPayments)
        .set({ status: "failed", notes: `Checkout not started at ${chosen.label}: ${reason}`.slice(0, 2000), updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
    }
  }

  /**
   * GET /api/payments/checkout/:ref: the signed form that carries a pending PayFast or Ozow payment
   * to the provider's page; a payment already settled sends the browser to its result page.
   */
  async function checkoutPage(
    ref: string,
  ): Promise<
    { kind: "form"; label: string; checkout: Extract<Checkout, { kind: "form" }>; amount: number } | { kind: "redirect"; location: string }
  > {
    const payment = await findPayment(ref);
    const provider = payment ? hosted.get(payment.provider as HostedProviderName) : undefined;
    if (!payment || !provider) throw notFound("No such payment.");
    const q = `?ref=${encodeURIComponent(ref)}`;
    if (payment.status === "paid" || payment.status === "refunded") return { kind: "redirect", location: `/payment/success${q}` };
    if (payment.status !== "pending")
      return { kind: "redirect", location: `/payment/${payment.status === "cancelled" ? "cancel" : "failure"}${q}` };
    const checkout = await provider.startCheckout(checkoutInput(payment));
    if (checkout.kind === "redirect") return { kind: "redirect", location: checkout.url };
    return { kind: "form", label: provider.label, checkout, amount: payment.amount };
  }

  /**
   * A hosted provider's notification, read and checked before anything is looked up: bad input
   * (missing fields, wrong types, not ZAR) is a 400; a bad signature is a 401 where `strict`, else
   * (PayFast, whose ITN is answered 200 whatever happens) only noted. Returns the rest of the work:
   * find our payment, ask the provider's server, capture through the one capture path.
   */
  async function takeNotification(
    name: HostedProviderName,
    request: NotificationRequest,
    options: { strict: boolean; source?: string },
  ): Promise<() => Promise<void>> {
    const provider = hosted.get(name);
    if (!provider) throw notFound("No such payment provider.");
    let notification: ProviderNotification;
    try {
      notification = provider.readNotification(request);
    } catch (error) {
      if (!(error instanceof NotificationRefused)) throw error;
      // Logged by field name and reason only: no body, no signature, no key.
      app.log.warn({ provider: name, reason: error.kind, fields: Object.keys(error.fields), ref: error.reference }, error.message);
      if (error.kind === "bad_input") throw badRequest(error.message, error.fields);
      const note = `Not captured: a notification from ${provider.label} for this payment was refused (${error.message})`;
      if (error.reference) await notePending(name, error.reference, note);
      else if (error.checkoutId) {
        const [claimed] = await db
          .select({ ref: capturedPayments.external_transaction_id })
          .from(capturedPayments)
          .where(and(eq(capturedPayments.provider, name), eq(capturedPayments.provider_reference, error.checkoutId)))
          .limit(1);
        if (claimed) await notePending(name, claimed.ref, note);
      }
      if (options.strict) throw new AppError(401, "invalid_signature", "The notification signature is not valid.");
      return async () => undefined;
    }
    if (name === "payfast") {
      // PayFast's source check, after the answer (the lookup may take a moment): an ITN from an
      // address that is not PayFast's captures nothing, and the owner sees why on the payment.
      return async () => {
        if (!(await payfastSource.allows(options.source))) {
          app.log.warn(
            { provider: name, ref: notification.reference, source: options.source },
            "PayFast ITN from an address not PayFast's",
          );
          if (notification.reference) {
            await notePending(
              name,
              notification.reference,
              `Not captured: a notification from PayFast for this payment came from ${options.source ?? "an unknown address"}, which is not one of PayFast's (PAYFAST_VALID_IPS lists others).`,
            );
          }
          return;
        }
        await settleNotification(provider, notification, options);
      };
    }
    return () => settleNotification(provider, notification, options);
  }

  /** Runs work after the answer has gone, tracked (paymentNotificationsSettled) and never thrown. */
  function inBackground(work: () => Promise<void>): void {
    const running = work()
      .catch((error) => {
        app.log.error({ err: error }, "payment notification processing failed");
      })
      .finally(() => notificationsInFlight.delete(running));
    notificationsInFlight.add(running);
  }

  /** A note on a pending payment of this provider, for the owner (the dashboard's payment shows it). */
  async function notePending(provider: string, ref: string, note: string): Promise<void> {
    await db
      .update(capturedPayments)
      .set({ notes: appendNote(capturedPayments.notes, note.slice(0, 500)), updated_at: new Date() })
      .where(
        and(
          eq(capturedPayments.external_transaction_id, ref),
          eq(capturedPayments.provider, provider),
          inArray(capturedPayments.status, ["pending", "failed", "cancelled"]),
        ),
      );
  }

  async function settleNotification(provider: HostedProvider, n: ProviderNotification, options: { strict: boolean }): Promise<void> {
    const [payment] = n.reference
      ? await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, n.reference)).limit(1)
      : await db
          .select()
          .from(capturedPayments)
          .where(and(eq(capturedPayments.provider, provider.name), eq(capturedPayments.provider_reference, n.checkoutId ?? "")))
          .limit(1);
    const log = { provider: provider.name, ref: payment?.external_transaction_id ?? n.reference, providerPaymentId: n.providerPaymentId };
    if (!payment || payment.provider !== provider.name) {
      app.log.warn(log, "payment notification for no payment of ours");
      if (options.strict) throw notFound("No such payment.");
      return;
    }
    const ref = payment.external_transaction_id;
    if (payment.status === "paid" || payment.status === "refunded") {
      app.log.info(log, "payment notification replayed: already captured");
      return;
    }
    if (n.status === "failed" || n.status === "cancelled") {
      await markUnpaid(payment.id, n.status, n.payload);
      return;
    }
    if (n.status !== "paid") {
      await notePending(provider.name, ref, `${provider.label} reports ${n.providerStatus}: not paid yet.`);
      return;
    }
    const expected = toCents(payment.amount);
    if (n.amountCents !== expected) {
      app.log.error({ ...log, expected, reported: n.amountCents }, "payment amount mismatch: not captured");
      await notePending(
        provider.name,
        ref,
        `Not captured: ${provider.label} reported ${n.amountCents} cents, we priced ${expected} cents.`,
      );
      return;
    }
    let truth: PaylinkStatusResult;
    try {
      truth = await provider.confirm(n, { reference: ref, providerReference: payment.provider_reference });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      app.log.error({ ...log, reason: error.message }, "payment notification not confirmed by the provider");
      await notePending(
        provider.name,
        ref,
        `Not captured: ${error.message}. Check it at ${provider.label} and mark it paid if the money arrived.`,
      );
      // Not 2xx where the provider delivers again (Ozow, Yoco); PayFast was answered already.
      if (options.strict) throw new AppError(502, "payment_provider", "Could not confirm the payment with the provider.");
      return;
    }
    try {
      await captureIfConfirmed(payment, truth, n.payload, n.providerPaymentId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === "payment_not_confirmed") {
        await notePending(provider.name, ref, `Not captured: ${provider.label}'s own status for it is not paid.`);
      }
      app.log.warn({ ...log, reason: error.code }, "payment notification not captured");
    }
  }

  // ---- the webhook --------------------------------------------------------------------------

  /** POST /api/payments/webhook/:provider — also what the sandbox checkout buttons call. */
  async function handleCallback(providerName: string, request: CallbackRequest): Promise<{ received: true }> {
    if (providerName !== provider.name) throw notFound("No such payment provider.");
    if (!provider.verifyCallback(request)) {
      app.log.warn({ provider: providerName }, "payment callback with a bad signature refused");
      throw new AppError(401, "invalid_signature", "The callback signature is not valid.");
    }
    let json: unknown;
    try {
      json = JSON.parse(request.rawBody);
    } catch {
      throw badRequest("The callback body is not JSON.");
    }
    const parsed = callbackSchema.safeParse(json);
    if (!parsed.success) throw validationError(parsed.error);
    const callback = parsed.data;

    const payment = await findPayment(callback.externalTransactionID);
    if (!payment || payment.provider !== provider.name) throw notFound("No such payment.");
    if (payment.provider_reference && payment.provider_reference !== callback.paylinkID) {
      throw badRequest("The callback does not match this payment.");
    }

    const outcome = statusFromProvider(callback.status);
    if (outcome === "paid") {
      if (payment.status === "paid" || payment.status === "refunded") return { received: true }; // a replay
      let truth: PaylinkStatusResult;
      try {
        truth = await provider.getStatus(payment.provider_reference ?? callback.paylinkID);
      } catch (error) {
        app.log.error({ err: error, ref: payment.external_transaction_id }, "payment status re-check failed");
        // Not 2xx: the provider delivers the callback again later.
        throw new AppError(502, "payment_provider", "Could not confirm the payment with the provider.");
      }
      await captureIfConfirmed(payment, truth, callback);
    } else if (outcome === "failed" || outcome === "cancelled") {
      await markUnpaid(payment.id, outcome, callback);
    }
    return { received: true };
  }

  async function findPayment(ref: string): Promise<Payment | null> {
    const [payment] = await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)).limit(1);
    return payment ?? null;
  }

  async function markUnpaid(paymentId: string, status: "failed" | "cancelled", payload: Record<string, unknown>): Promise<void> {
    await db
      .update(capturedPayments)
      .set({ status, raw_payload: payload, updated_at: new Date() })
      .where(and(eq(capturedPayments.id, paymentId), eq(capturedPayments.status, "pending")));
  }

  /**
   * Marks the payment paid when the provider's own status says paid for exactly our amount.
   * The UPDATE is conditional, so however many deliveries race, one flips it and only that
   * one queues the receipt and extends the subscription (same transaction). A payment marked
   * failed or cancelled can still be captured: the provider's status is the truth, and money
   * taken must never go unrecorded.
   */
  async function captureIfConfirmed(
    payment: Payment,
    truth: PaylinkStatusResult,
    payload: Record<string, unknown>,
    /** the provider's id of the money (pf_payment_id, TransactionId, Yoco payment id): unique per provider */
    providerPaymentId?: string,
  ): Promise<boolean> {
    const ref = payment.external_transaction_id;
    if (truth.status !== "paid") {
      throw new AppError(409, "payment_not_confirmed", "The provider does not report this payment as paid.");
    }
    const expected = toCents(payment.amount);
    if (truth.amountCents !== expected) {
      app.log.error({ ref, expected, reported: truth.amountCents }, "payment amount mismatch: not captured");
      await db
        .update(capturedPayments)
        .set({
          notes: appendNote(
            capturedPayments.notes,
            `Not captured: the provider reported ${truth.amountCents} cents, we priced ${expected} cents.`,
          ),
          updated_at: new Date(),
        })
        .where(eq(capturedPayments.id, payment.id));
      throw new AppError(409, "amount_mismatch", "The paid amount does not match the order.");
    }

    // Read outside the transaction: PGlite has one connection, which the transaction holds.
    const context = {
      business: await loadBusiness(app),
      rules: await loadRules(app),
      panelMode: app.provisioning.panel.mode,
      cloudApi: app.outbox.cloudApi,
    };
    let captured: boolean;
    try {
      captured = await db.transaction(async (tx) => {
        const now = new Date();
        const [row] = await tx
          .update(capturedPayments)
          .set({
            status: "paid",
            paid_at: now,
            raw_payload: payload,
            updated_at: now,
            ...(providerPaymentId ? { provider_payment_id: providerPaymentId } : {}),
          })
          .where(and(eq(capturedPayments.id, payment.id), inArray(capturedPayments.status, ["pending", "failed", "cancelled"])))
          .returning();
        if (!row) return false;
        await settlePayment(tx, context, row, now);
        return true;
      });
    } catch (error) {
      // The provider's payment id captured another payment already: a replay, nothing new.
      if (uniqueViolation(error) !== "payments_provider_payment_unique") throw error;
      app.log.warn({ ref, provider: payment.provider, providerPaymentId }, "provider payment id already captured: not captured again");
      await notePending(
        payment.provider,
        ref,
        `Not captured: the provider's payment ${providerPaymentId} already paid another of our payments (a replayed notification).`,
      );
      return false;
    }
    if (captured) {
      app.log.info({ ref, provider: payment.provider }, "payment captured");
      app.outbox.nudge();
    }
    return captured;
  }

  // ---- status for the result pages ------------------------------------------------------------

  async function publicStatus(ref: string): Promise<{ data: PaymentStatusView }> {
    let payment = await findPayment(ref);
    if (!payment) throw notFound("No payment with that reference.");
    if (await reconcile(payment)) payment = (await findPayment(ref)) ?? payment;
    return {
      data: {
        external_transaction_id: payment.external_transaction_id,
        status: payment.status as PaymentStatusView["status"],
        amount: payment.amount,
        currency: payment.currency,
        package_name: payment.package_name,
        provider: payment.provider,
        created_at: payment.created_at.toISOString(),
        paid_at: isoOrNull(payment.paid_at),
        outcome: await outcomeOf(payment),
      },
    };
  }

  /** What the payment did, for the result page: only what really happened. */
  async function outcomeOf(payment: Payment): Promise<PaymentOutcome> {
    const none: PaymentOutcome = { account: "none", subscription_end: null, suspended: false, sent_to: [], messages: [] };
    if (payment.status !== "paid") return none;
    const messages = await customerMessagesOf(payment);
    if (!payment.client_id) return { ...none, messages };
    const [client] = await db.select().from(clients).where(eq(clients.id, payment.client_id));
    if (!client) return { ...none, messages };
    return {
      account: payment.client_created ? "created" : "renewed",
      subscription_end: isoOrNull(client.subscription_end),
      suspended: client.status === "suspended",
      sent_to: sentTo(payment, client),
      messages,
    };
  }

  /**
   * The customer's messages this payment caused, with where each stands: its receipt (and the
   * receipt's e-mail copy), the welcome of the account it made, and the line login of the panel
   * job it queued. Found by the payer (client or lead) and the dedupe keys their senders give
   * them (receipt:<payment>, welcome:<client>:…, credentials:<job>:…), so neither an older
   * message nor a later payment's is counted, whatever the clocks say. Never the business notice.
   */
  async function customerMessagesOf(payment: Payment): Promise<PaymentMessage[]> {
    const payer = [
      payment.client_id ? eq(outbox.client_id, payment.client_id) : null,
      payment.lead_id ? eq(outbox.lead_id, payment.lead_id) : null,
    ].filter((c) => c !== null);
    if (payer.length === 0) return [];
    const keys = [like(outbox.dedupe_key, `receipt:${payment.id}%`)];
    if (payment.client_created && payment.client_id) keys.push(like(outbox.dedupe_key, `welcome:${payment.client_id}:%`));
    const jobs = await db
      .select({ id: provisioningJobs.id })
      .from(provisioningJobs)
      .where(like(provisioningJobs.cause_key, `payment:${payment.id}:%`));
    for (const job of jobs) keys.push(like(outbox.dedupe_key, `credentials:${job.id}:%`));
    const rows = await db
      .select({
        kind: outbox.kind,
        channel: outbox.channel,
        status: outbox.status,
        delivery_status: outbox.delivery_status,
        created_at: outbox.created_at,
      })
      .from(outbox)
      .where(and(or(...payer), or(...keys), inArray(outbox.kind, [...CUSTOMER_KINDS])))
      .orderBy(outbox.created_at);
    // One line per kind and channel (a WhatsApp message's e-mail copy is its own line), the
    // furthest along when there are two; a WhatsApp message carried by its e-mail copy is left out.
    const byKey = new Map<string, PaymentMessage>();
    for (const row of rows) {
      const state = messageState(row);
      if (!state) continue;
      const message = { kind: row.kind as PaymentMessageKind, channel: row.channel as PaymentMessage["channel"], state };
      const key = `${message.kind}:${message.channel}`;
      const known = byKey.get(key);
      if (!known || STATE_RANK[state] > STATE_RANK[known.state]) byKey.set(key, message);
    }
    return [...byKey.values()].sort((a, b) => CUSTOMER_KINDS.indexOf(a.kind) - CUSTOMER_KINDS.indexOf(b.kind));
  }

  /**
   * A result page reads a pending card payment: ask the provider ourselves (throttled per
   * payment), so a lost or unverifiable callback does not leave a paid customer waiting.
   * Same capture rules as the webhook. Returns whether the row may have changed.
   */
  async function reconcile(payment: Payment): Promise<boolean> {
    if (payment.status !== "pending") return false;
    const other = hosted.get(payment.provider as HostedProviderName);
    if (other) return reconcileHosted(payment, other);
    if (payment.provider !== provider.name || !payment.provider_reference) return false;
    const now = Date.now();
    const last = lastReconciled.get(payment.external_transaction_id);
    if (last !== undefined && now - last < RECONCILE_EVERY_MS) return false;
    lastReconciled.set(payment.external_transaction_id, now);
    if (lastReconciled.size > RECONCILE_MEMORY) lastReconciled.delete(lastReconciled.keys().next().value as string);
    try {
      const truth = await provider.getStatus(payment.provider_reference);
      if (truth.status === "paid") await captureIfConfirmed(payment, truth, { source: "status-query", status: "paid" });
      else if (truth.status === "failed" || truth.status === "cancelled") {
        await markUnpaid(payment.id, truth.status, { source: "status-query", status: truth.status });
      } else return false;
      return true;
    } catch (error) {
      if (!(error instanceof AppError) && !(error instanceof PaymentProviderError)) throw error;
      app.log.warn({ err: error, ref: payment.external_transaction_id }, "payment status query did not settle the payment");
      return false;
    }
  }

  /** The same for a hosted provider with a status API (Ozow, Yoco; PayFast has none: its ITN decides). */
  async function reconcileHosted(payment: Payment, other: HostedProvider): Promise<boolean> {
    if (!other.getStatus) return false;
    const now = Date.now();
    const last = lastReconciled.get(payment.external_transaction_id);
    if (last !== undefined && now - last < RECONCILE_EVERY_MS) return false;
    lastReconciled.set(payment.external_transaction_id, now);
    try {
      const truth = await other.getStatus({ reference: payment.external_transaction_id, providerReference: payment.provider_reference });
      if (truth.status === "paid") {
        await captureIfConfirmed(payment, truth, { source: "status-query", status: "paid" }, truth.providerPaymentId);
      } else if (truth.status === "failed" || truth.status === "cancelled") {
        await markUnpaid(payment.id, truth.status, { source: "status-query", status: truth.status });
      } else return false;
      return true;
    } catch (error) {
      if (!(error instanceof AppError) && !(error instanceof PaymentProviderError)) throw error;
      app.log.warn({ err: error, ref: payment.external_transaction_id }, "payment status query did not settle the payment");
      return false;
    }
  }

  // ---- EFT -------------------------------------------------------------------------------------

  async function createEft(body: unknown, session: PayerSession = { clientId: null }): Promise<EftResponse> {
    const parsed = eftRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return eftFor(parsed.data, session, body);
  }

  /** An EFT reference for a package, for the signed-in client or a named payer (see paylinkFor). */
  async function eftFor(input: OrderInput, session: PayerSession, body: unknown = input): Promise<EftResponse> {
    const business = await loadBusiness(app);
    const s = business.settings;
    // Placeholder bank details are never shown (nor mailed): paying into them would be lost.
    if (!eftReady(s)) throw conflict(EFT_UNAVAILABLE_MESSAGE);
    const order = await priceOrder(input, session);
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(input, session, order.pkg.name, body);
    return issueEft(business, order, payer, input);
  }

  /**
   * POST /api/payments/:ref/eft, the failed card payment's "Pay by EFT instead": a reference for
   * the same package, coupon and payer as the card payment that failed or was cancelled (the payer
   * proved who they are, or not, when they made it), so the customer pays on without typing it
   * all again. Asking again answers the same reference (issueEft reuses an open one).
   */
  async function eftInstead(ref: string): Promise<EftResponse> {
    const [card] = await db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
    if (!card || card.provider === "eft") throw notFound("No such card payment.");
    if (card.status !== "failed" && card.status !== "cancelled") throw conflict(EFT_INSTEAD_NOT_FAILED_MESSAGE);
    const business = await loadBusiness(app);
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
    const order = await priceOrder(input, { clientId: card.client_id });
    return issueEft(business, order, payer, input);
  }

  /** The EFT reference for a priced order and its payer, with the e-mail of the details (once). */
  async function issueEft(
    business: BusinessProfile,
    order: Awaited<ReturnType<typeof priceOrder>>,
    payer: Payer,
    input: OrderInput,
  ): Promise<EftResponse> {
    const s = business.settings;
    const { pkg, price } = order;
    const email = payer.email && isValidEmail(payer.email) ? payer.email.trim() : "";
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
        const [row] = await tx
          .insert(capturedPayments)
          .values({
            provider: "eft",
            external_transaction_id: reference,
            amount: price,
            currency: "ZAR",
            package_id: pkg.id,
            package_name: pkg.name,
            description: `${pkg.name} IPTV Subscription`,
            client_id: payer.client?.id ?? null,
            lead_id: payer.leadId,
            client_email: email,
            immediate_start_consent_at: input.immediateStartConsent ? new Date() : null,
            status: "pending",
            notes: contact ? `EFT details given to ${contact}` : "",
            ...orderColumns(order, input),
          })
          .onConflictDoNothing({ target: capturedPayments.external_transaction_id })
          .returning({ id: capturedPayments.id });
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

  // ---- the sandbox's hosted checkout -----------------------------------------------------------

  function sandboxOrNotFound() {
    if (active.kind !== "sandbox" || cardMode !== "sandbox")
      throw notFound("The test checkout is only available when no card provider is configured.");
    return active.provider;
  }

  /** The checkout page's facts, or where to send the browser when the pay link is settled. */
  async function sandboxCheckout(
    ref: string,
  ): Promise<{ kind: "page"; paylink: SandboxPaylink; business: BusinessProfile } | { kind: "redirect"; location: string }> {
    const paylink = await sandboxOrNotFound().find(ref);
    if (!paylink) throw notFound("No such payment.");
    if (paylink.status !== "pending") return { kind: "redirect", location: resultPage(paylink) };
    return { kind: "page", paylink, business: await loadBusiness(app) };
  }

  /** Pay, Decline or Cancel: update the ledger, drive the webhook, answer the result page's path. */
  async function sandboxAction(ref: string, action: SandboxAction): Promise<string> {
    const sandbox = sandboxOrNotFound();
    const result = await sandbox.settle(ref, SANDBOX_OUTCOMES[action]);
    if (!result) throw notFound("No such payment.");
    if (result.settled) {
      const { request } = sandbox.callbackFor(result.paylink);
      try {
        await handleCallback("sandbox", request);
      } catch (error) {
        // The ledger is settled; the result page's status read reconciles with it.
        app.log.error({ err: error, ref }, "sandbox callback was not accepted");
      }
    }
    return resultPage(result.paylink);
  }

  function resultPage(paylink: SandboxPaylink): string {
    const page = RESULT_PAGES[paylink.status];
    const ref = encodeURIComponent(paylink.external_transaction_id);
    return page ? `/payment/${page}?ref=${ref}` : `/api/payments/sandbox/checkout/${ref}`;
  }

  return {
    providerName: provider.name,
    /** which ways to pay are on (GET /api/payments/methods) */
    methods: () => paymentMethods(app),
    takeNotification,
    inBackground,
    checkoutPage,
    /** a package's price today (specials included), as a pay link or EFT reference charges it; 400 when not on sale */
    priceOf: priceActivePackage,
    paylinkFor,
    eftFor,
    eftInstead,
    /** the path a provider signs for its callbacks to us */
    callbackPath: (name: string) => new URL(`${publicUrl}/api/payments/webhook/${name}`).pathname,
    createPaylink,
    handleCallback,
    publicStatus,
    createEft,
    checkCoupon,
    identify,
    sandboxCheckout,
    sandboxAction,
  };
}

export type OrderInput = {
  packageId: string;
  /** card (default) or a hosted provider's id */
  method?: string;
  name?: string;
  whatsapp?: string;
  email?: string;
  clientId?: string;
  immediateStartConsent?: boolean;
  coupon?: string;
  verificationCode?: string;
  company?: string;
  address?: string;
  vatNumber?: string;
  /** the device the line is for (issue 32): an app, or a MAG / Enigma2 box with its MAC */
  lineType?: string;
  mac?: string;
};

export type PaymentsService = ReturnType<typeof createPaymentsService>;

// ---- the customer's messages about a payment (the result page's "messages") -------------------

const CUSTOMER_KINDS: readonly PaymentMessageKind[] = ["receipt", "welcome", "credentials"];

const STATE_RANK: Record<PaymentMessageState, number> = { failed: 0, queued: 1, owner: 2, sent: 3, delivered: 4, read: 5 };

/**
 * Where an outbox row stands for the customer: pending/sending are queued; owner waits for the
 * business to send it on WhatsApp; a sent WhatsApp message is as far as Meta's last delivery
 * status says (a failed delivery is a failure). A row rerouted to its e-mail copy is null: the
 * copy is the message.
 */
export function messageState(row: { channel: string; status: string; delivery_status: string | null }): PaymentMessageState | null {
  switch (row.status) {
    case "pending":
    case "sending":
      return "queued";
    case "owner":
      return "owner";
    case "failed":
      return "failed";
    case "sent": {
      const delivery = row.channel === "whatsapp" ? row.delivery_status : null;
      return delivery === "delivered" || delivery === "read" || delivery === "failed" ? delivery : "sent";
    }
    default:
      return null;
  }
}
