// Status updates by e-mail (docs/architecture.md, "Integrations"):
//   POST /api/status/subscribe {email} → 202: the same answer whoever asks; a confirmation link
//        goes by e-mail (double opt-in), unless the address is already confirmed
//   POST /api/status/subscribe {} with a client session → 200: that client subscribed on their own
//        channel (e-mail or WhatsApp), no confirmation needed (they are known)
//   GET  /api/client/status-updates → {data: {subscribed, channel}}; PUT the same {subscribed} → on/off (the portal's toggle)
//   GET  /api/status/subscribe/confirm?token=  → a page with a Confirm button (mail scanners that
//        open links confirm nothing); POST the same → confirmed
//   GET  /api/status/unsubscribe?token=  → a page with an Unsubscribe button; POST the same (also
//        what a mail client's one-click List-Unsubscribe-Post sends) → unsubscribed
// Incidents opened, updated and resolved, and scheduled maintenance when it is scheduled, starts
// or changes, and is completed or cancelled, reach confirmed subscribers through the outbox (a
// client on their channel). The change feed tells every process; the dedupe key (incident, its
// updated_at, subscriber) makes each notice go once however many processes hear it.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from "fastify";
import { requireClient } from "@/server/auth/guards";
import { readClientSession } from "@/server/auth/sessions";
import type { Db } from "@/server/db/client";
import { clients, incidents, statusSubscribers, systemComponents } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness, signOff } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { AppError, badRequest } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE, withinRecipientCap } from "@/server/lib/rate-limit";
import { SUSPENDED_MESSAGE } from "@/shared/client-schemas";
import { formatDateTime } from "@/shared/dates";
import { escapeHtml } from "@/shared/html";
import { type ClientStatusUpdates, STATUS_EMAIL_MESSAGE, statusSubscribeSchema, statusUpdatesPatchSchema } from "@/shared/schemas";

export const SUBSCRIBE_ANSWER = "Check your inbox: we've sent you a link to confirm your status updates.";
export const EMAIL_MESSAGE = STATUS_EMAIL_MESSAGE;
const INCIDENT_STATUS_WORDS: Record<string, string> = {
  investigating: "Investigating",
  identified: "Cause found",
  monitoring: "Fix in place, watching",
  resolved: "Resolved",
};
/** A maintenance window's notice: its subject's stage and its status line. */
const MAINTENANCE_STAGES: Record<string, { stage: string; state: string }> = {
  scheduled: { stage: "Scheduled maintenance", state: "Planned: nothing changes before it starts" },
  in_progress: { stage: "Maintenance in progress", state: "In progress now" },
  completed: { stage: "Maintenance completed", state: "Completed: everything is back to normal" },
  cancelled: { stage: "Maintenance cancelled", state: "Cancelled: it will not happen as planned" },
};
const clientAnswer = (channel: "email" | "whatsapp" | null) =>
  `You'll get status updates ${channel === "whatsapp" ? "on WhatsApp" : "by e-mail"}: when something breaks, when it's fixed, and before planned maintenance.`;

const hash = (token: string) => createHash("sha256").update(token).digest("base64url");
const newToken = () => randomBytes(24).toString("base64url");

function page(reply: FastifyReply, business: BusinessProfile, title: string, text: string, form?: { action: string; button: string }) {
  const button = form
    ? `<form method="post" action="${escapeHtml(form.action)}"><button type="submit">${escapeHtml(form.button)}</button></form>`
    : `<p><a href="/status">See the status page</a></p>`;
  reply.header("cache-control", "no-store").header("referrer-policy", "same-origin");
  return reply
    .type("text/html; charset=utf-8")
    .send(`<!doctype html><html lang="en-ZA"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · ${escapeHtml(business.companyName)}</title>
<style>body{font-family:system-ui,sans-serif;background:#0b0d12;color:#f1f3f7;display:grid;place-items:center;min-height:100vh;margin:0;padding:1.5rem}main{max-width:28rem}h1{font-size:1.5rem}p{color:#b8bfcc;line-height:1.5}a{color:#ff8aa5}button{font:inherit;font-weight:600;background:#e11d48;color:#fff;border:0;border-radius:.75rem;padding:.75rem 1.25rem;min-height:44px;cursor:pointer}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${button}</main></body></html>`);
}

type IncidentRow = typeof incidents.$inferSelect;

/** What a notice says: the subject's stage and the lines before the footer. */
async function noticeText(db: Db, incident: IncidentRow, opened: boolean): Promise<{ stage: string; lines: string[] }> {
  if (incident.kind !== "maintenance") {
    const resolved = incident.resolved_at !== null || incident.status === "resolved";
    const stage = resolved ? "Resolved" : opened ? "New" : "Update";
    const state = INCIDENT_STATUS_WORDS[incident.status] ?? incident.status;
    const maintenance = incident.impact === "maintenance";
    return {
      stage,
      lines: [
        `${stage}: ${incident.title}`,
        `${maintenance ? "Planned maintenance" : "Status"}: ${state}`,
        incident.body ? `\n${incident.body}` : "",
      ],
    };
  }
  const words = MAINTENANCE_STAGES[incident.status] ?? MAINTENANCE_STAGES.scheduled;
  // A scheduled window changed after its first notice is an update (a new time, new details).
  const stage = incident.status === "scheduled" && !opened ? "Maintenance update" : words.stage;
  const keys = Array.isArray(incident.component_keys) ? incident.component_keys : [];
  const names = keys.length
    ? (
        await db
          .select({ key: systemComponents.key, name: systemComponents.name })
          .from(systemComponents)
          .where(inArray(systemComponents.key, keys))
      )
        .sort((a, b) => keys.indexOf(a.key) - keys.indexOf(b.key))
        .map((c) => c.name)
    : [];
  const until = incident.ends_at ? ` to ${formatDateTime(incident.ends_at)}` : "";
  return {
    stage,
    lines: [
      `${stage}: ${incident.title}`,
      `When: ${formatDateTime(incident.started_at)}${until} (SAST)`,
      names.length ? `Affected: ${names.join(", ")}` : "",
      `Status: ${words.state}`,
      incident.body ? `\n${incident.body}` : "",
    ],
  };
}

/**
 * Queues the notice of an incident's or a maintenance window's change to every confirmed
 * subscriber, once per change: e-mail subscribers by e-mail, clients on their own channel (an
 * address that is both gets it once, as the client).
 */
export async function notifySubscribers(app: FastifyInstance, incidentId: string, opened: boolean): Promise<number> {
  const [incident] = await app.db.select().from(incidents).where(eq(incidents.id, incidentId));
  if (!incident) return 0;
  const subscribers = await app.db
    .select({ subscriber: statusSubscribers, client: clients })
    .from(statusSubscribers)
    .leftJoin(clients, eq(clients.id, statusSubscribers.client_id))
    .where(and(isNotNull(statusSubscribers.confirmed_at), isNull(statusSubscribers.unsubscribed_at)))
    .orderBy(statusSubscribers.created_at, statusSubscribers.id);
  if (subscribers.length === 0) return 0;
  const business = await loadBusiness(app);
  const { stage, lines } = await noticeText(app.db, incident, opened);
  const targets: { subscriberId: string; channel: "email" | "whatsapp"; recipient: string; clientId: string | null; token: string }[] = [];
  for (const { subscriber, client } of subscribers) {
    if (!subscriber.client_id || !client) continue;
    const contact = preferredContact(client);
    if (contact) targets.push({ subscriberId: subscriber.id, ...contact, clientId: client.id, token: subscriber.unsubscribe_token });
  }
  const taken = new Set(targets.map((t) => `${t.channel}:${t.recipient}`));
  for (const { subscriber } of subscribers) {
    if (subscriber.client_id || !subscriber.email || taken.has(`email:${subscriber.email}`)) continue;
    targets.push({
      subscriberId: subscriber.id,
      channel: "email",
      recipient: subscriber.email,
      clientId: null,
      token: subscriber.unsubscribe_token,
    });
  }
  await app.db.transaction(async (tx) => {
    for (const target of targets) {
      const unsubscribe = `${business.publicUrl}/api/status/unsubscribe?token=${encodeURIComponent(target.token)}`;
      const stop = target.clientId
        ? `\nYou turned on status updates in your ${business.companyName} client portal. To stop them, switch them off under Account management (${business.publicUrl}/account-management) or open: ${unsubscribe}`
        : `\nYou asked for status updates from ${business.companyName}. To stop them: ${unsubscribe}`;
      await enqueue(tx, {
        channel: target.channel,
        recipient: target.recipient,
        subject: target.channel === "email" ? `${business.companyName} status — ${stage}: ${incident.title}` : undefined,
        body: [...lines, `\nFollow it on our status page: ${business.publicUrl}/status`, stop, `\n${signOff(business)}`]
          .filter(Boolean)
          .join("\n"),
        kind: "status-update",
        client_id: target.clientId,
        dedupe_key: `status:${incident.id}:${incident.updated_at.getTime()}:${target.subscriberId}`,
      });
    }
  });
  app.outbox.nudge();
  return targets.length;
}

/** A client's own subscription: whether it is on, and the channel it goes to (null: no usable contact). */
export async function clientStatusUpdates(db: Db, clientId: string): Promise<ClientStatusUpdates> {
  const [row] = await db
    .select({ subscriber: statusSubscribers, client: clients })
    .from(clients)
    .leftJoin(statusSubscribers, eq(statusSubscribers.client_id, clients.id))
    .where(eq(clients.id, clientId));
  if (!row) return { subscribed: false, channel: null };
  const on = !!row.subscriber?.confirmed_at && !row.subscriber.unsubscribed_at;
  return { subscribed: on, channel: preferredContact(row.client)?.channel ?? null };
}

/** Turns a client's own subscription on (no confirmation: the session says who they are) or off. */
export async function setClientStatusUpdates(db: Db, clientId: string, on: boolean): Promise<ClientStatusUpdates> {
  const now = new Date();
  if (on) {
    await db
      .insert(statusSubscribers)
      .values({ client_id: clientId, unsubscribe_token: newToken(), confirmed_at: now })
      .onConflictDoUpdate({
        target: statusSubscribers.client_id,
        set: { confirmed_at: now, unsubscribed_at: null, updated_at: now },
        setWhere: isNotNull(statusSubscribers.unsubscribed_at),
      });
  } else {
    await db
      .update(statusSubscribers)
      .set({ unsubscribed_at: now, updated_at: now })
      .where(and(eq(statusSubscribers.client_id, clientId), isNull(statusSubscribers.unsubscribed_at)));
  }
  return clientStatusUpdates(db, clientId);
}

const routes: FastifyPluginAsync = async (app) => {
  // The confirm and unsubscribe pages' buttons are plain HTML forms (and one-click unsubscribe
  // posts a form body): read such bodies in this scope.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  // Every process hears of every incident change; the dedupe key keeps each notice single.
  const stop = app.changes.onChange((change) => {
    if (change.table !== "incidents" || change.op === "DELETE" || !change.id) return;
    void notifySubscribers(app, change.id, change.op === "INSERT").catch((error) =>
      app.log.error({ err: error, incident: change.id }, "status subscribers: notice not queued"),
    );
  });
  app.addHook("onClose", async () => stop());

  app.post("/status/subscribe", async (request, reply) => {
    await enforce(app.db, [
      { key: `status-subscribe:ip:${clientIp(request)}`, limit: app.config.PUBLIC_WRITE_LIMIT_PER_MIN, message: PUBLIC_WRITE_MESSAGE },
    ]);
    // A signed-in client who gives no address subscribes themselves, on their own channel. A
    // suspended client's session reaches nothing but its own session and renew (guards.ts): here
    // it is the same 403 as the portal's toggle, with or without an address (issue 30).
    const given = (request.body as { email?: unknown } | null | undefined)?.email;
    const session = await readClientSession(app, request);
    const [client] = session
      ? await app.db.select({ id: clients.id, status: clients.status }).from(clients).where(eq(clients.id, session.clientId))
      : [];
    if (client?.status === "suspended") throw new AppError(403, "suspended", SUSPENDED_MESSAGE);
    if (given === undefined) {
      if (client) {
        const state = await setClientStatusUpdates(app.db, client.id, true);
        reply.header("cache-control", "no-store");
        return reply.status(200).send({ success: true, message: clientAnswer(state.channel), data: state });
      }
    }
    const parsed = statusSubscribeSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(EMAIL_MESSAGE, { email: EMAIL_MESSAGE });
    const email = parsed.data.email.toLowerCase();
    const business = await loadBusiness(app);
    await app.db.transaction(async (tx) => {
      // Anyone can type anyone's address: past the cap per recipient (lib/rate-limit.ts) nothing
      // more is written or queued, and the answer stays the same 202 — refusing would tell a
      // stranger something about that address. (Its lock on the address, held to the end of this
      // transaction, also lets simultaneous first sign-ups for one address take turns.)
      const [allowed] = await withinRecipientCap(tx, [{ kind: "status-confirm", recipient: email }]);
      if (!allowed) return;
      const [existing] = await tx.select().from(statusSubscribers).where(eq(statusSubscribers.email, email)).for("update");
      if (existing?.confirmed_at && !existing.unsubscribed_at) return; // already getting them: nothing to send
      const token = newToken();
      if (existing) {
        await tx
          .update(statusSubscribers)
          .set({ confirm_token_hash: hash(token), confirmed_at: null, unsubscribed_at: null, updated_at: new Date() })
          .where(eq(statusSubscribers.id, existing.id));
      } else {
        await tx.insert(statusSubscribers).values({ email, confirm_token_hash: hash(token), unsubscribe_token: newToken() });
      }
      await enqueue(tx, {
        channel: "email",
        recipient: email,
        subject: `${business.companyName}: confirm your status updates`,
        body: [
          "Hi,",
          "",
          `Someone (we hope you) asked for ${business.companyName}'s service status updates at this address: an e-mail when something breaks, is being fixed or is fixed, and before planned maintenance.`,
          "To start getting them, confirm here: {{secret}}",
          "If it wasn't you, ignore this e-mail: nothing will be sent.",
          "",
          signOff(business),
        ].join("\n"),
        secret: `${business.publicUrl}/api/status/subscribe/confirm?token=${encodeURIComponent(token)}`,
        kind: "status-confirm",
      });
    });
    app.outbox.nudge();
    return reply.status(202).send({ success: true, message: SUBSCRIBE_ANSWER });
  });

  // The portal's "Status updates" toggle: the signed-in client's own row only (the id comes from the session).
  app.get("/client/status-updates", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return { data: await clientStatusUpdates(app.db, request.client?.id ?? "") };
  });
  app.put("/client/status-updates", { preHandler: requireClient }, async (request, reply) => {
    const parsed = statusUpdatesPatchSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Please choose on or off";
      throw badRequest(message, { subscribed: message });
    }
    const data = await setClientStatusUpdates(app.db, request.client?.id ?? "", parsed.data.subscribed);
    reply.header("cache-control", "no-store");
    return { success: true, message: data.subscribed ? clientAnswer(data.channel) : "You won't get status updates any more.", data };
  });

  const tokenOf = (request: { query: unknown; body: unknown }) => {
    const fromQuery = (request.query as { token?: unknown } | null)?.token;
    const fromBody = (request.body as { token?: unknown } | null)?.token;
    const token = typeof fromQuery === "string" ? fromQuery : typeof fromBody === "string" ? fromBody : "";
    return token.length > 0 && token.length <= 100 ? token : "";
  };

  app.get("/status/subscribe/confirm", async (request, reply) => {
    const business = await loadBusiness(app);
    const token = tokenOf(request);
    return page(
      reply,
      business,
      "Confirm your status updates",
      "One tap and we'll e-mail you when the service has a problem, and when it's fixed.",
      {
        action: `/api/status/subscribe/confirm?token=${encodeURIComponent(token)}`,
        button: "Confirm",
      },
    );
  });

  app.post("/status/subscribe/confirm", async (request, reply) => {
    const business = await loadBusiness(app);
    const token = tokenOf(request);
    const [row] = token
      ? await app.db
          .update(statusSubscribers)
          .set({ confirmed_at: new Date(), confirm_token_hash: null, updated_at: new Date() })
          .where(eq(statusSubscribers.confirm_token_hash, hash(token)))
          .returning({ id: statusSubscribers.id })
      : [];
    if (!row) {
      reply.status(404);
      return page(
        reply,
        business,
        "This link has expired",
        "It was used already, or a newer link was sent. Ask again on the status page if you still want updates.",
      );
    }
    return page(
      reply,
      business,
      "You're subscribed",
      `We'll e-mail you when ${business.companyName}'s service has a problem, and when it's fixed. Every e-mail has a link to stop.`,
    );
  });

  app.get("/status/unsubscribe", async (request, reply) => {
    const business = await loadBusiness(app);
    return page(reply, business, "Stop status updates?", "You won't get e-mails about outages or maintenance any more.", {
      action: `/api/status/unsubscribe?token=${encodeURIComponent(tokenOf(request))}`,
      button: "Unsubscribe",
    });
  });

  app.post("/status/unsubscribe", async (request, reply) => {
    const business = await loadBusiness(app);
    const token = tokenOf(request);
    if (token) {
      await app.db
        .update(statusSubscribers)
        .set({ unsubscribed_at: new Date(), updated_at: new Date() })
        .where(and(eq(statusSubscribers.unsubscribe_token, token), isNull(statusSubscribers.unsubscribed_at)));
    }
    // The same page whether or not the token named anyone: it tells nothing about who subscribed.
    return page(
      reply,
      business,
      "You're unsubscribed",
      "You won't get status e-mails any more. You can subscribe again on the status page.",
    );
  });
};

export default routes;
