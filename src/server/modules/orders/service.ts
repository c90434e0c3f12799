// Where a visitor becomes a lead. The lead is saved first, in one transaction with the
// messages it causes (the outbox), so a mail server that is down never loses an order. The
// free-trial rules: no trial on sport event days (refused, the shop's day); one per WhatsApp
// number and per mailbox, held by the database's partial unique indexes under concurrency, and
// a trial asked for again answered like any, never started (trials/again.ts: who has been here is
// not public). An Idempotency-Key makes a retried submission answer the lead it already saved.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { leads, trialBlackoutDays } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { AppError, refusedWhole, tooManyRequests, uniqueViolation } from "@/server/lib/errors";
import { GroupCommit } from "@/server/lib/group-commit";
import { matchContact, matchContactIds, storedNumber } from "@/server/lib/identity";
import { enqueueAll, type OutboxMessage } from "@/server/lib/outbox";
import { alertsEmail } from "@/server/lib/owner-alerts";
import { hitEach, PUBLIC_WRITE_MESSAGE, withinRecipientCap } from "@/server/lib/rate-limit";
import { listActiveSpecials, listPackages, specialsAt } from "@/server/modules/catalogue/service";
import { earlierTrial, noteTrialAgain, TRIAL_AGAIN_FORM } from "@/server/modules/trials/again";
import { trialMode } from "@/server/modules/trials/mode";
import { checkTrialRequest, countOrderRefusal, findTrialOf, openTrial, trialCodeDestination } from "@/server/modules/trials/service";
import type { TrialAvailability } from "@/shared/api";
import { mailboxKey } from "@/shared/contact";
import { saDay } from "@/shared/dates";
import { findSpecial, isFreePackage, monthsFromDuration, packageMonths } from "@/shared/pricing";
import { CODE_ROUTE_MESSAGES, type InterestForm, isFreeTrialOrder, type OrderForm } from "@/shared/schemas";
import type { TrialStarted } from "@/shared/trial-schemas";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { interestBusinessEmail, interestCustomerMessage, orderBusinessEmail, orderCustomerEmail, orderWhatsAppText } from "./messages";

type Lead = typeof leads.$inferSelect;
type NewLead = typeof leads.$inferInsert;

/** What came with the form besides its fields. */
export interface Submission {
  ip: string;
  idempotencyKey: string | null;
  /** the form's own fields as received (cleaned of what PostgreSQL cannot store), kept in leads.payload */
  payload: Record<string, unknown>;
}

export interface Saved {
  id: string;
  /** true when an earlier submission with the same Idempotency-Key was answered again */
  replayed: boolean;
}

export const TRIAL_UNAVAILABLE_MESSAGE =
  "Free trials aren't available on sport event days. Please choose a paid package or try again tomorrow.";
export const KEY_REUSED_MESSAGE = "This Idempotency-Key was already used for a different form. Use a new key for each submission.";

/** The partial unique indexes that hold one free trial per number and per mailbox. */
const TRIAL_INDEXES = new Set(["leads_one_trial_per_whatsapp", "leads_one_trial_per_email"]);

function trialUnavailable(reason: string): AppError {
  const message = reason.trim()
    ? `Free trials aren't available on sport event days (today: ${reason.trim()}). Please choose a paid package or try again tomorrow.`
    : TRIAL_UNAVAILABLE_MESSAGE;
  return new AppError(409, "trial_unavailable", message, { duration: message });
}

// ---- orders --------------------------------------------------------------------------------

export interface SavedOrder extends Saved {
  whatsappUrl: string;
  /** instant mode (issue 27): the free trial waiting for the code sent to the customer */
  trial?: TrialStarted;
  /** a free trial asked for instantly that no code could reach: the owner confirms it (CODE_ROUTE_MESSAGES.trialApprove) */
  notice?: string;
}

export async function submitOrder(app: FastifyInstance, form: OrderForm, submission: Submission): Promise<SavedOrder> {
  const [business, ownerEmail] = await Promise.all([loadBusiness(app), alertsEmail(app.db)]);
  const trial = isFreeTrialOrder(form);
  // Instant mode (modules/trials): the limits below, then a code instead of a wait for the owner,
  // when a code can reach them now; when none can, the owner confirms it (approve) and they are told so.
  const instantMode = trial && (await trialMode(app)) === "instant";
  const codeTo = instantMode ? await trialCodeDestination(app, form) : null;
  const instant = codeTo !== null;
  const values: NewLead = { ...(await orderValues(app, form)), ...(await returningClient(app, form)) };
  // A number or mailbox that already had its free trial is answered like anyone's (trials/again.ts):
  // saved as a trial asked for again, which no one-trial index counts and which never starts.
  const save = (again: boolean) =>
    saveLead(app, again ? { ...values, form_type: TRIAL_AGAIN_FORM, notes: "Already had a free trial." } : values, submission, {
      accepts: (lead) => lead.form_type === "order" || lead.form_type === "free-trial" || lead.form_type === TRIAL_AGAIN_FORM,
      // A replay answers before the trial rules: the trial it asks about is this very lead.
      check: trial
        ? async () => {
            await checkTrialDay(app).catch(async (refusal) => {
              if (instant) await countOrderRefusal(app, refusal, submission.ip);
              throw refusal;
            });
            if (instant) {
              await checkTrialRequest(app, { email: form.email, ip: submission.ip, to: codeTo });
            }
          }
        : undefined,
      // Instant: the customer's message is the code (openTrial), not a promise to be in touch. A
      // trial asked again: its person is told privately (noteTrialAgain), the owner counts it.
      messages: (lead) => (again ? [] : instant ? [orderBusinessEmail(lead, ownerEmail)] : orderMessages(lead, business, ownerEmail)),
      // two first trials for one number at once: the second is the one asked for again
      onUniqueViolation: (constraint) => (TRIAL_INDEXES.has(constraint) ? new AppError(409, TRIAL_AGAIN_FORM, "") : null),
    });
  const saved = await save(trial && (await earlierTrial(app, values)) !== null).catch((error: unknown) => {
    if (error instanceof AppError && error.code === TRIAL_AGAIN_FORM) return save(true);
    throw error;
  });
  const again = saved.lead.form_type === TRIAL_AGAIN_FORM;
  if (again && !saved.replayed) await noteTrialAgain(app, saved.lead, submission.ip, instant);
  const answer = { id: saved.lead.id, replayed: saved.replayed, whatsappUrl: orderWhatsAppUrl(saved.lead, business) };
  // A replay answers the trial its first submission opened (a lead saved in approve mode has none).
  if (instant && (!saved.replayed || (await findTrialOf(app, saved.lead.id)))) {
    return { ...answer, trial: await openTrial(app, saved.lead, submission.ip, codeTo) };
  }
  return instantMode && !instant ? { ...answer, notice: CODE_ROUTE_MESSAGES.trialApprove } : answer;
}

/** The lead an order makes, but for who it may be (`returningClient`). */
async function orderValues(app: FastifyInstance, form: OrderForm): Promise<NewLead> {
  const trial = isFreeTrialOrder(form);
  return {
    form_type: trial ? "free-trial" : "order",
    name: form.name,
    email: form.email,
    email_key: mailboxKey(form.email),
    whatsapp: storedNumber(form.whatsapp),
    whatsapp_digits: storedNumber(form.whatsapp),
    package_name: form.package,
    duration: form.duration,
    device: form.device,
    internet_platform: form.internetPlatform,
    // Only meaningful with 'other'; kept anyway when sent (the payload has it too).
    other_platform: form.otherPlatform,
    internet_speed: form.internetSpeed,
    // What the business reads in its new-order e-mail and on the lead: the live price.
    package_price: trial ? "FREE" : await orderPrice(app, form),
    marketing_opt_in: form.marketingOptIn,
  };
}

/** What an order (not an instant trial) queues: the business's notice and the customer's confirmation. */
const orderMessages = (lead: Lead, business: BusinessProfile, ownerEmail: string): OutboxMessage[] => [
  orderBusinessEmail(lead, ownerEmail),
  orderCustomerEmail(lead, business),
];

// ---- paid orders, written together ---------------------------------------------------------

/**
 * A paid order (the public form's common case) is written by group commit
 * (docs/decisions/012-group-commit-for-orders.md): orders arriving while another batch is being
 * written share the next transaction. Each keeps what it would have had alone — its own rate-limit
 * count, client match, lead, messages (the per-recipient cap counted across the batch) and answer.
 * A batch the database refuses outright (a reused Idempotency-Key, say) is rolled back whole, and
 * each of its orders is then taken alone by `submitOrder` (already counted against its limit), so
 * one bad order costs the others nothing but the retry. Free trials always go alone (`submitOrder`): their rules
 * read what the order before them wrote.
 */
export async function submitPaidOrder(
  app: FastifyInstance,
  form: OrderForm,
  submission: Submission,
  limit: { key: string; perMinute: number },
): Promise<SavedOrder> {
  const business = await loadBusiness(app);
  const pending: PendingOrder = { form, submission, limit, business, values: await orderValues(app, form) };
  let writer = paidOrderWriters.get(app.db);
  if (!writer) {
    writer = new GroupCommit((batch) => writePaidOrders(app, batch));
    paidOrderWriters.set(app.db, writer);
  }
  const outcome = await writer.submit(pending);
  if ("refused" in outcome) throw outcome.refused;
  if ("alone" in outcome) return outcome.alone;
  return { id: outcome.lead.id, replayed: false, whatsappUrl: orderWhatsAppUrl(outcome.lead, business) };
}

interface PendingOrder {
  form: OrderForm;
  submission: Submission;
  limit: { key: string; perMinute: number };
  business: BusinessProfile;
  values: NewLead;
}
type PaidOutcome = { lead: Lead } | { refused: AppError } | { alone: SavedOrder };

/** One writer per app, found by its database handle (the same in every plugin's encapsulated instance of the app). */
const paidOrderWriters = new WeakMap<object, GroupCommit<PendingOrder, PaidOutcome>>();

/** Paid orders of this process at the writer, not yet answered (being written or waiting for the next batch). */
export function paidOrdersPending(app: FastifyInstance): number {
  return paidOrderWriters.get(app.db)?.pending ?? 0;
}

async function writePaidOrders(app: FastifyInstance, batch: readonly PendingOrder[]): Promise<PaidOutcome[]> {
  // Every submission is counted, in a statement of its own as `enforce` counts one: a hot
  // address's row is never held locked for a whole batch.
  const limits = await hitEach(
    app.db,
    batch.map((order) => order.limit.key),
    batch[0].limit.perMinute,
  );
  const admitted = batch.filter((_, index) => limits[index].allowed);
  let leadOf = new Map<PendingOrder, PaidOutcome>();
  if (admitted.length > 0) {
    try {
      leadOf = await app.db.transaction(async (tx) => {
        // One statement each for the whole batch: the client matches, the leads, the owner's
        // address, the recipient caps (two) and the messages.
        const matches = await matchContactIds(
          tx,
          admitted.map((order) => order.form),
        );
        const rows = admitted.map((order, index) => ({
          ...order.values,
          id: randomUUID(),
          ...leadOfClient(matches[index]),
          payload: order.submission.payload,
          ip: order.submission.ip,
          idempotency_key: order.submission.idempotencyKey,
        }));
        const saved = new Map((await tx.insert(leads).values(rows).returning()).map((lead) => [lead.id, lead]));
        const leadsOf = admitted.map((order, index) => ({ order, lead: saved.get(rows[index].id) as Lead }));
        const ownerEmail = await alertsEmail(tx);
        const messages = leadsOf.flatMap(({ order, lead }) =>
          orderMessages(lead, order.business, ownerEmail).filter((message) => message.recipient.trim() !== ""),
        );
        await enqueueAll(tx, await withinRecipientCap(tx, messages));
        return new Map(leadsOf.map(({ order, lead }): [PendingOrder, PaidOutcome] => [order, { lead }]));
      });
      app.outbox.nudge();
    } catch (error) {
      if (!refusedWhole(error)) throw error;
      // Nothing of the batch was written: each order alone (already counted), as if it had come on its own.
      const alone = await Promise.all(
        admitted.map(async (order): Promise<[PendingOrder, PaidOutcome]> => {
          try {
            return [order, { alone: await submitOrder(app, order.form, order.submission) }];
          } catch (refusal) {
            if (refusal instanceof AppError) return [order, { refused: refusal }];
            throw refusal;
          }
        }),
      );
      leadOf = new Map(alone);
    }
  }
  return batch.map(
    (order, index) => leadOf.get(order) ?? { refused: tooManyRequests(limits[index].retryAfterSeconds, PUBLIC_WRITE_MESSAGE) },
  );
}

/**
 * The price of the package an order names, as the site shows it now: the active package of
 * that name (else the first of the chosen length, as the form pairs them), with its special
 * applied; '' when the order names none we sell. The form's own price list never counts:
 * only the catalogue does, as for a payment.
 */
async function orderPrice(app: FastifyInstance, form: Pick<OrderForm, "package" | "duration">): Promise<string> {
  const { packages, specials } = await app.cache.get("orders:price-list", ["packages", "pricing_specials"], async () => ({
    packages: await listPackages(app.db),
    specials: await listActiveSpecials(app.db),
  }));
  const name = form.package.trim().toLowerCase();
  const months = monthsFromDuration(form.duration);
  const paid = packages.filter((p) => !isFreePackage(p));
  const pkg =
    (name ? paid.find((p) => p.name.trim().toLowerCase() === name) : undefined) ??
    (!name && months !== null ? paid.find((p) => packageMonths(p) === months) : undefined);
  if (!pkg) return "";
  const special = findSpecial(pkg, specialsAt(specials, Date.now()));
  return String(special ? special.special_price : pkg.price);
}

/** The chat link the browser opens after an order: to the business, with the order prefilled. */
export function orderWhatsAppUrl(lead: Lead, business: BusinessProfile): string {
  return buildWhatsAppLink(business.whatsappNumber, orderWhatsAppText(lead, business));
}

/**
 * Who the lead may be, for the owner's eyes (lib/identity.ts): linked to the client whose
 * WhatsApp number it gave (numbers are one client's); an e-mail address alone (often shared in
 * a household) only flags the client it belongs to. The owner decides when converting.
 */
async function returningClient(app: FastifyInstance, person: { whatsapp: string; email: string }) {
  const match = await matchContact(app.db, person);
  return leadOfClient(match && { clientId: match.client.id, by: match.by });
}

const leadOfClient = (match: { clientId: string; by: "whatsapp" | "email" } | null) => ({
  client_id: match?.by === "whatsapp" ? match.clientId : null,
  possible_duplicate_of: match?.by === "email" ? match.clientId : null,
});

/**
 * Whether a free trial may start today: not on a blackout day (a sport event day). The public
 * read and the order's own check ask this one question, so the buttons and the form agree.
 */
export async function trialAvailability(app: FastifyInstance, now = new Date()): Promise<TrialAvailability> {
  // The business runs on South African days: 00:00-23:59 in Johannesburg, whatever the server's zone.
  const day = saDay(now);
  const [blackout] = await app.db
    .select({ reason: trialBlackoutDays.reason })
    .from(trialBlackoutDays)
    .where(eq(trialBlackoutDays.day, day))
    .limit(1);
  return blackout ? { available: false, reason: blackout.reason.trim(), day } : { available: true, reason: "", day };
}

/** No free trial on a blackout day (a sport event day): said to anyone, it is the shop's, not a person's. */
async function checkTrialDay(app: FastifyInstance): Promise<void> {
  const today = await trialAvailability(app);
  if (!today.available) throw trialUnavailable(today.reason);
}

// ---- interest ------------------------------------------------------------------------------

export async function submitInterest(app: FastifyInstance, form: InterestForm, submission: Submission): Promise<Saved> {
  const [business, ownerEmail] = await Promise.all([loadBusiness(app), alertsEmail(app.db)]);
  const values: NewLead = {
    form_type: "interest",
    name: `${form.firstName} ${form.lastName}`,
    email: form.email,
    email_key: mailboxKey(form.email),
    whatsapp: storedNumber(form.whatsapp),
    whatsapp_digits: storedNumber(form.whatsapp),
    package_name: form.packageName,
    package_price: form.packagePrice,
    duration: form.duration,
    communication_method: form.communicationMethod,
    marketing_opt_in: form.marketingOptIn,
    ...(await returningClient(app, form)),
  };
  const saved = await saveLead(app, values, submission, {
    accepts: (lead) => lead.form_type === "interest",
    messages: (lead) => [interestCustomerMessage(lead, form.firstName, business), interestBusinessEmail(lead, ownerEmail)],
  });
  return { id: saved.lead.id, replayed: saved.replayed };
}

// ---- saving --------------------------------------------------------------------------------

interface SaveRules {
  /** whether a lead found by the Idempotency-Key belongs to this form */
  accepts(lead: Lead): boolean;
  /** rules checked before saving (throws an AppError to refuse) */
  check?: () => Promise<void>;
  /** the messages the saved lead causes, queued in the same transaction */
  messages(lead: Lead): OutboxMessage[];
  /** an AppError for a unique index the form's rules know, or null */
  onUniqueViolation?: (constraint: string) => AppError | null;
}

async function saveLead(
  app: FastifyInstance,
  values: NewLead,
  submission: Submission,
  rules: SaveRules,
): Promise<{ lead: Lead; replayed: boolean }> {
  const key = submission.idempotencyKey;
  const replay = async (): Promise<{ lead: Lead; replayed: boolean } | null> => {
    if (!key) return null;
    const [existing] = await app.db.select().from(leads).where(eq(leads.idempotency_key, key)).limit(1);
    if (!existing) return null;
    if (!rules.accepts(existing)) throw new AppError(409, "conflict", KEY_REUSED_MESSAGE);
    return { lead: existing, replayed: true };
  };

  const earlier = await replay();
  if (earlier) return earlier;
  try {
    await rules.check?.();
  } catch (refusal) {
    // A twin with the same key may have committed between the look-up above and the check,
    // which then sees that twin (say, as the one free trial): it is this submission, answered again.
    const twin = await replay();
    if (twin) return twin;
    throw refusal;
  }
  try {
    const lead = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(leads)
        .values({ ...values, payload: submission.payload, ip: submission.ip, idempotency_key: key })
        .returning();
      // No support e-mail in branding: the lead is still in the admin; nothing to address.
      // The customer's confirmation goes to whatever address or number was typed: past the cap
      // per recipient (lib/rate-limit.ts) the form still succeeds, but nothing more is queued to
      // them — refusing would tell a stranger something about that address or number.
      await enqueueAll(
        tx,
        await withinRecipientCap(
          tx,
          rules.messages(row).filter((m) => m.recipient.trim() !== ""),
        ),
      );
      return row;
    });
    app.outbox.nudge();
    return { lead, replayed: false };
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === null) throw error;
    // A concurrent submission with the same key won the race: answer what it saved. (Checked
    // first: the twin of a free-trial order also collides on the one-trial indexes.)
    const winner = await replay();
    if (winner) return winner;
    const refusal = rules.onUniqueViolation?.(constraint);
    if (refusal) throw refusal;
    throw error;
  }
}
