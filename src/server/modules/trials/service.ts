// Instant free trials (issue 27; docs/architecture.md, "Subscriptions" and "Provisioning").
// In instant mode a storefront free-trial order is saved as a lead (the order's own rules: one
// trial per number and per e-mail, no trial on blackout days), then held to the limits here and
// answered with a trial waiting for its code, the code sent to the customer's WhatsApp (or
// e-mail) through lib/verification.ts. The right code, in one transaction: the client made from
// the lead, the trial started through the lifecycle (which queues the panel's create_line with
// trial=1 on the trial package), the lead marked converted, the welcome with a set-password
// link queued. The trial row is locked first, so two verifies at once start one trial; the
// request's limits (throwaway address, per network, per shop) are checked again before the code
// is used, so one reached since the request still holds (same words, counted in trial_refusals).
// Who is a customer is not public (issue 46, decision 015): a trial asked for with a client's
// number is answered like anyone's (tellClient says what happens instead).
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { subscriberUrls } from "@/server/adapters/panel/panel";
import { secureCookies } from "@/server/auth/sessions";
import { clients, leads, packages, provisioningJobs, trials, verificationCodes } from "@/server/db/schema";
import { appForDevice, insertClientFromLead, setPasswordLink } from "@/server/lib/accounts";
import { loadBusiness } from "@/server/lib/business";
import { codeRoute, noCodeRoute } from "@/server/lib/code-route";
import { AppError, conflict, notFound } from "@/server/lib/errors";
import { storedNumber } from "@/server/lib/identity";
import { type Actor, applyOrRefuse, loadRules } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueue, enqueueAll } from "@/server/lib/outbox";
import { issueReplyCode, replyWebhookReady, typedProof } from "@/server/lib/reply-codes";
import {
  type CodeCheck,
  codeRefusal,
  type Destination,
  type IssueOutcome,
  issueCode,
  maskedDestination,
  type Tx,
  tooManyCodes,
  tooManyCodesRefusal,
} from "@/server/lib/verification";
import { welcomeMessages } from "@/server/modules/admin-business/messages";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import { saDay } from "@/shared/dates";
import { CODE_ROUTE_MESSAGES } from "@/shared/schemas";
import type { TrialStarted, TrialState, TrialView } from "@/shared/trial-schemas";
import { trialNeverStarts } from "./again";
import { type LimitReason, limitBroken, limitRefusal, loadTrialLimits, recordRefusal, requestRefusal } from "./limits";
import { networkOf } from "./network";

type Lead = typeof leads.$inferSelect;
type Trial = typeof trials.$inferSelect;

export const TRIAL_ACTOR: Actor = { adminId: null, label: "free trial (code confirmed)" };
export const TRIAL_COOKIE = "sd_trial";
export const TRIAL_MESSAGES = {
  notFound: "We could not find this free trial. Please ask for it again from the order form.",
  started: "This free trial has already started. Your line details were sent to you.",
  converted: "This request is already a client: your details were sent to you.",
  provisioning: "Your trial has started. We are making your line now: this usually takes a few seconds.",
  failed: "Your trial has started, but the line is taking longer than usual. We will send the details to you as soon as it is ready.",
  ready: "Your line is ready. The details were also sent to you.",
  readyElsewhere: "Your line is ready. The details were sent to you on WhatsApp or e-mail.",
  awaiting: "Enter the 6-digit code we sent you to start your free trial.",
} as const;

/** A trial's code destination; `replyOnly` when no code can go there and they prove the number by writing to us. */
export type TrialDestination = Destination & { replyOnly?: boolean };

/**
 * Where the code goes (lib/verification.ts, codeRoute): their WhatsApp when a code reaches it now,
 * else the e-mail address they gave; else, when messages written to us arrive (the webhook), their
 * number, proved by writing the code to us (replyOnly); null when none (the owner confirms it).
 */
export async function trialCodeDestination(
  app: FastifyInstance,
  lead: { whatsapp?: string | null; email?: string | null },
): Promise<TrialDestination | null> {
  const candidates: Destination[] = [];
  const number = lead.whatsapp ? (storedNumber(lead.whatsapp) ?? lead.whatsapp) : null;
  if (number) candidates.push({ channel: "whatsapp", recipient: number });
  if (lead.email?.trim()) candidates.push({ channel: "email", recipient: lead.email.trim() });
  const [to] = await codeRoute(app.db, candidates, app.outbox.codeTransports);
  if (to) return to;
  if (number && replyWebhookReady(app.config) && (await loadBusiness(app)).whatsappNumber) {
    return { channel: "whatsapp", recipient: number, replyOnly: true };
  }
  return null;
}

// ---- asking (from the order) ------------------------------------------------------------------

/**
 * The limits a request must pass before its lead is saved; a refusal is counted for the owner and
 * thrown. The code limits too (429): a lead saved without its code would hold the one trial per
 * number and address with nothing sent. The same for a client's number as for anyone's: whether
 * the number is a client's is not answered here (openTrial, tellClient).
 */
export async function checkTrialRequest(app: FastifyInstance, request: { email: string; ip: string; to: Destination }) {
  const network = networkOf(request.ip);
  const reason = await requestRefusal(app, { email: request.email, network });
  if (reason) {
    await recordRefusal(app, reason, network);
    throw limitRefusal(reason);
  }
  const ask = { purpose: "trial" as const, recipients: [request.to.recipient], requester: codeRequester(request.ip) };
  if (await tooManyCodes(app.db, ask)) throw tooManyCodesRefusal(request.to.channel);
}

/** Codes asked for are limited per network an hour (the trial allowances count trials started). */
const codeRequester = (ip: string) => `network:${networkOf(ip)}`;

/** Counts the order's own refusal of a free trial (a blackout day) for the owner, then lets it go on (a trial asked again: again.ts). */
export async function countOrderRefusal(app: FastifyInstance, refusal: unknown, ip: string): Promise<void> {
  if (refusal instanceof AppError && refusal.code === "trial_unavailable") await recordRefusal(app, "blackout-day", networkOf(ip));
}

/**
 * The trial for a saved free-trial lead: made once (a replayed order answers the same trial)
 * with its code sent; a replay sends a new code only when none is live any more. A lead whose
 * number is a client's (orders' returningClient set its client_id) gets the same trial, answer
 * and code limits, but its code goes nowhere and the client is told privately (tellClient).
 */
export async function openTrial(app: FastifyInstance, lead: Lead, ip: string, to: TrialDestination): Promise<TrialStarted> {
  const [made] = await app.db
    .insert(trials)
    .values({ lead_id: lead.id, network: networkOf(ip), channel: to.channel, recipient: to.recipient })
    .onConflictDoNothing({ target: trials.lead_id })
    .returning();
  const trial = made ?? (await app.db.select().from(trials).where(eq(trials.lead_id, lead.id)))[0];
  let sentTo = to.replyOnly ? "" : maskedDestination({ channel: trial.channel as Destination["channel"], recipient: trial.recipient });
  if (trial.started_at) return { trialId: trial.id, sentTo, waLink: null };
  if (!to.replyOnly && (made || !(await hasLiveCode(app, lead.id)))) {
    if ((await sendCode(app, trial, lead, ip)) === "capped") sentTo = await routeAgain(app, trial, lead, ip);
  }
  if (made && lead.client_id) {
    await recordRefusal(app, "returning-client", trial.network);
    await tellClient(app, lead.client_id);
  }
  return { trialId: trial.id, sentTo, waLink: await replyCode(app, trial, lead, ip) };
}

export const RETURNING_CLIENT_KIND = "trial-returning-client";

/**
 * A free trial was asked for with a client's number: the answer did not say so (who is a customer
 * is not public), so the client is told here, on their own contacts from their account (not what
 * the form said): they already have an account, no trial was started and no code sent, and where
 * their portal is. E-mail when they have an address, else WhatsApp; once a day at most (the
 * dedupe key), so a stranger asking again and again cannot flood them.
 */
async function tellClient(app: FastifyInstance, clientId: string): Promise<void> {
  const [client] = await app.db.select().from(clients).where(eq(clients.id, clientId));
  if (!client) return;
  const business = await loadBusiness(app);
  const email = client.email.trim();
  const to: Destination | null = email.includes("@")
    ? { channel: "email", recipient: email }
    : client.whatsapp
      ? { channel: "whatsapp", recipient: client.whatsapp }
      : null;
  if (!to) return;
  const first = client.full_name.trim().split(/\s+/)[0];
  const number = client.whatsapp ? ` with your WhatsApp number ending ${client.whatsapp.replace(/\D/g, "").slice(-4)}` : "";
  await enqueue(app.db, {
    channel: to.channel,
    recipient: to.recipient,
    subject: to.channel === "email" ? `You already have an account with ${business.companyName}` : undefined,
    body: [
      first ? `Hi ${first},` : "Hi,",
      "",
      `Someone asked ${business.companyName} for a free trial${number}. You already have an account with us, so no trial was started and no code was sent.`,
      `To see your line, renew or change your details, sign in to your portal: ${business.publicUrl}/client/login`,
      "",
      "If it was not you, there is nothing to do: nothing on your account changed.",
    ].join("\n"),
    kind: RETURNING_CLIENT_KIND,
    client_id: client.id,
    dedupe_key: `${RETURNING_CLIENT_KIND}:${client.id}:${saDay(new Date())}`,
  });
  app.outbox.nudge();
}

/**
 * A new reply code for the trial's number (lib/verification.ts, issueReplyCode): written to us from
 * that number, it starts the trial like the typed code (proveTrialByReply). Null without the webhook.
 */
async function replyCode(app: FastifyInstance, trial: Trial, lead: Lead, ip: string): Promise<string | null> {
  const number = lead.whatsapp ? storedNumber(lead.whatsapp) : null;
  if (!number) return null;
  return issueReplyCode(app.db, await loadBusiness(app), replyWebhookReady(app.config), {
    purpose: "trial",
    number,
    leadId: lead.id,
    requester: codeRequester(ip),
    payload: { trialId: trial.id },
  });
}

async function hasLiveCode(app: FastifyInstance, leadId: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.lead_id, leadId),
        eq(verificationCodes.purpose, "trial"),
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

async function sendCode(app: FastifyInstance, trial: Trial, lead: Lead, ip: string): Promise<IssueOutcome> {
  const outcome = await issueCode(app.db, await loadBusiness(app), {
    purpose: "trial",
    to: [{ channel: trial.channel as Destination["channel"], recipient: trial.recipient }],
    leadId: lead.id,
    requester: codeRequester(ip),
    payload: { trialId: trial.id },
    name: lead.name,
    // a client's number, or a trial asked for again: counted like any code, sent nowhere (openTrial)
    unsent: trialNeverStarts(lead),
  });
  app.outbox.nudge();
  return outcome;
}

/**
 * The day's WhatsApp cap filled under this trial's code (issueCode's `capped`: another process took
 * its last place after trialCodeDestination chose WhatsApp): the code goes where one reaches them
 * now instead (their e-mail), and the answer names it; "" when nowhere (writing to us, or a new code
 * later, which then says why not), never a place nothing went to.
 */
async function routeAgain(app: FastifyInstance, trial: Trial, lead: Lead, ip: string): Promise<string> {
  const to = await trialCodeDestination(app, lead);
  if (!to || to.replyOnly) return "";
  const [routed] = await app.db
    .update(trials)
    .set({ channel: to.channel, recipient: to.recipient })
    .where(eq(trials.id, trial.id))
    .returning();
  return (await sendCode(app, routed, lead, ip)) === "capped" ? "" : maskedDestination(to);
}

/** The trial a lead opened, if any. */
export async function findTrialOf(app: FastifyInstance, leadId: string): Promise<Trial | null> {
  const [trial] = await app.db.select().from(trials).where(eq(trials.lead_id, leadId));
  return trial ?? null;
}

async function findTrial(app: FastifyInstance, id: string): Promise<Trial> {
  const [trial] = await app.db.select().from(trials).where(eq(trials.id, id));
  if (!trial) throw notFound(TRIAL_MESSAGES.notFound);
  return trial;
}

/** POST /api/trials/:id/resend: a new code for a trial not started yet (the code limits apply). */
export async function resendCode(app: FastifyInstance, id: string, ip: string): Promise<TrialStarted> {
  const trial = await findTrial(app, id);
  if (trial.started_at) throw conflict(TRIAL_MESSAGES.started);
  const [lead] = await app.db.select().from(leads).where(eq(leads.id, trial.lead_id));
  if (lead.status === "converted") throw conflict(TRIAL_MESSAGES.converted);
  // Where a code reaches them now (a window may have closed, a template been approved, since).
  const to = await trialCodeDestination(app, lead);
  if (!to) throw noCodeRoute(CODE_ROUTE_MESSAGES.trialResend, "code");
  const [routed] = await app.db
    .update(trials)
    .set({ channel: to.channel, recipient: to.recipient })
    .where(eq(trials.id, trial.id))
    .returning();
  let sentTo = to.replyOnly ? "" : maskedDestination(to);
  if (!to.replyOnly && (await sendCode(app, routed, lead, ip)) === "capped") sentTo = await routeAgain(app, routed, lead, ip);
  if (lead.client_id) await tellClient(app, lead.client_id);
  return { trialId: trial.id, sentTo, waLink: await replyCode(app, routed, lead, ip) };
}

// ---- the code ---------------------------------------------------------------------------------

export interface Verified {
  view: TrialView;
  /** the token of the browser that entered the code (its cookie): it alone sees the line's password */
  viewerToken: string;
  /** how long the cookie should live (the trial's length) */
  hours: number;
}

/** The package the lead asked for (for the conversion later), when it names one we have. */
async function chosenPackage(app: FastifyInstance, lead: Lead) {
  if (!lead.package_name.trim()) return null;
  const [pkg] = await app.db
    .select({ id: packages.id, name: packages.name })
    .from(packages)
    .where(sql`lower(${packages.name}) = lower(${lead.package_name})`)
    .orderBy(sql`${packages.is_active} desc`)
    .limit(1);
  return pkg ?? null;
}

/**
 * Starts the trial once its code is proved: typed into the page (`code`), or written to us from the
 * number (a `proof` from lib/verification's replyProof). The same path either way.
 */
export async function verifyTrial(app: FastifyInstance, id: string, code: string | ((tx: Tx) => Promise<CodeCheck>)): Promise<Verified> {
  const trial = await findTrial(app, id);
  if (trial.started_at) throw conflict(TRIAL_MESSAGES.started);
  const [lead] = await app.db.select().from(leads).where(eq(leads.id, trial.lead_id));
  const [business, rules, limits, pkg] = await Promise.all([
    loadBusiness(app),
    loadRules(app),
    loadTrialLimits(app),
    chosenPackage(app, lead),
  ]);
  const appGuide = await appForDevice(app.db, lead.device);
  const viewerToken = randomBytes(24).toString("base64url");
  const now = new Date();
  type Outcome =
    | { kind: "limit"; reason: LimitReason }
    | { kind: "refused"; check: Exclude<CodeCheck, { ok: true }> }
    | { kind: "started"; trial: Trial };

  const outcome = await app.db.transaction(async (tx): Promise<Outcome> => {
    // One verify at a time per trial: the second waits here and then sees the trial started.
    const [locked] = await tx.select().from(trials).where(eq(trials.id, id)).for("update");
    if (locked.started_at) throw conflict(TRIAL_MESSAGES.started);
    // Trials started today are counted one start at a time, so the shop's cap holds under races.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trials:start'))`);
    // The request's limits again (the address, its network today, the shop today): one reached
    // since it was asked for still holds. Refused before the code is used, so nothing is made.
    const broken = await limitBroken(tx, limits, { email: lead.email, network: trial.network }, now);
    if (broken) return { kind: "limit", reason: broken };
    const prove = typeof code === "string" ? typedProof({ leadId: lead.id }, "trial", code, now) : code;
    const check = await prove(tx);
    // A wrong try is counted: this transaction commits, then the refusal is answered.
    if (!check.ok) return { kind: "refused", check };
    // A trial asked for with a client's number never starts: its code went nowhere, so only a
    // guess or the client's own reply gets here. Refused as a code that is no more.
    if (trialNeverStarts(lead)) return { kind: "refused", check: { ok: false, reason: "none" } };
    const [current] = await tx.select().from(leads).where(eq(leads.id, lead.id)).for("update");
    if (current.status === "converted") throw conflict(TRIAL_MESSAGES.converted);
    let client = await insertClientFromLead(tx, current, { packageId: pkg?.id ?? null, packageName: pkg?.name ?? current.package_name });
    // The lifecycle starts the trial and, in this transaction, queues create_line with trial=1.
    const started = await applyOrRefuse(tx, {
      clientId: client.id,
      cause: { kind: "trial-started", hours: rules.trialHours },
      causeKey: `trial:${lead.id}`,
      actor: TRIAL_ACTOR,
      rules,
      now,
    });
    client = started.client;
    const [converted] = await tx
      .update(leads)
      .set({ status: "converted", client_id: client.id, updated_at: now })
      .where(and(eq(leads.id, lead.id), ne(leads.status, "converted")))
      .returning({ id: leads.id });
    if (!converted) throw conflict(TRIAL_MESSAGES.converted);
    // Typed on a page: that browser sees the line. Written to us from the number: the browser that
    // asked for the trial keeps seeing it (claimTrialViewer); it alone was shown that code.
    const viewer = typeof code === "string" ? { viewer_hash: digest(viewerToken) } : {};
    const [updated] = await tx
      .update(trials)
      .set({ client_id: client.id, started_at: now, ...viewer })
      .where(eq(trials.id, id))
      .returning();
    const link = await setPasswordLink(tx, business, client.id, now);
    const welcome = welcomeMessages(business, { client, app: appGuide, setPasswordLink: link }, await loadTemplates(tx));
    await enqueueAll(
      tx,
      welcome.map((m) => ({ ...m, lead_id: lead.id })),
    );
    return { kind: "started", trial: updated };
  });
  if (outcome.kind === "limit") {
    await recordRefusal(app, outcome.reason, trial.network);
    throw limitRefusal(outcome.reason);
  }
  if (outcome.kind === "refused") throw codeRefusal(outcome.check);
  app.outbox.nudge();
  return { view: await trialView(app, outcome.trial, viewerToken), viewerToken, hours: rules.trialHours };
}

// ---- the result screen --------------------------------------------------------------------------

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The browser that asked for the trial may see its line once the number is proved, however it is
 * proved: the code typed there, or the reply code it was shown (waLink) written to us from the
 * number. Answers the token for its cookie, or null once the trial has started (nothing to claim).
 */
export async function claimTrialViewer(app: FastifyInstance, trialId: string): Promise<{ token: string; hours: number } | null> {
  const token = randomBytes(24).toString("base64url");
  const [claimed] = await app.db
    .update(trials)
    .set({ viewer_hash: digest(token) })
    .where(and(eq(trials.id, trialId), isNull(trials.started_at)))
    .returning({ id: trials.id });
  return claimed ? { token, hours: (await loadRules(app)).trialHours } : null;
}

/** The viewer cookie `<trial id>.<token>`: read by GET /api/trials/:id only, for the trial's length. */
export function trialCookieOptions(config: FastifyInstance["config"], hours: number) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/api/trials", secure: secureCookies(config), maxAge: hours * 3600 };
}

/** The viewer token from the cookie `<trial id>.<token>`, when it is this trial's. */
export function viewerTokenFor(cookie: string | undefined, id: string): string | null {
  if (!cookie) return null;
  const dot = cookie.indexOf(".");
  return dot > 0 && cookie.slice(0, dot) === id ? cookie.slice(dot + 1) : null;
}

export async function getTrial(app: FastifyInstance, id: string, viewerToken: string | null): Promise<TrialView> {
  return trialView(app, await findTrial(app, id), viewerToken);
}

async function trialView(app: FastifyInstance, trial: Trial, viewerToken: string | null): Promise<TrialView> {
  const sentTo = maskedDestination({ channel: trial.channel as Destination["channel"], recipient: trial.recipient });
  const base = { id: trial.id, sentTo };
  if (!trial.started_at || !trial.client_id) {
    return { ...base, state: "awaiting-code", endsAt: null, line: null, message: TRIAL_MESSAGES.awaiting };
  }
  const [client] = await app.db.select().from(clients).where(eq(clients.id, trial.client_id));
  const endsAt = client?.subscription_end?.toISOString() ?? null;
  if (client?.panel_line_id && client.line_username) {
    const viewer = Boolean(viewerToken && trial.viewer_hash && digest(viewerToken) === trial.viewer_hash);
    if (!viewer) return { ...base, state: "ready", endsAt, line: null, message: TRIAL_MESSAGES.readyElsewhere };
    const urls = subscriberUrls(client.line_portal_url || (await currentStreamUrl(app)), {
      username: client.line_username,
      password: client.line_password,
    });
    return {
      ...base,
      state: "ready",
      endsAt,
      line: {
        username: client.line_username,
        password: client.line_password,
        server_url: urls.server_url,
        m3u_url: urls.m3u_url,
        expires_at: client.line_expires_at?.toISOString() ?? null,
      },
      message: TRIAL_MESSAGES.ready,
    };
  }
  const [job] = await app.db
    .select({ status: provisioningJobs.status })
    .from(provisioningJobs)
    .where(and(eq(provisioningJobs.client_id, trial.client_id), eq(provisioningJobs.action, "create_line")))
    .orderBy(desc(provisioningJobs.created_at))
    .limit(1);
  const state: TrialState = job && (job.status === "failed" || job.status === "task") ? "failed" : "provisioning";
  return { ...base, state, endsAt, line: null, message: state === "failed" ? TRIAL_MESSAGES.failed : TRIAL_MESSAGES.provisioning };
}
