// Status updates by e-mail (docs/architecture.md, "Integrations"):
//   POST /api/status/subscribe {email} → 202: the same answer whoever asks; a confirmation link
//        goes by e-mail (double opt-in), unless the address is already confirmed
//   GET  /api/status/subscribe/confirm?token=  → a page with a Confirm button (mail scanners that
//        open links confirm nothing); POST the same → confirmed
//   GET  /api/status/unsubscribe?token=  → a page with an Unsubscribe button; POST the same (also
//        what a mail client's one-click List-Unsubscribe-Post sends) → unsubscribed
// Incidents opened, updated and resolved reach confirmed subscribers through the outbox. The
// change feed tells every process; the dedupe key (incident, its updated_at, subscriber) makes
// each notice go once however many processes hear it.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from "fastify";
import { incidents, statusSubscribers } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness, signOff } from "@/server/lib/business";
import { badRequest } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { STATUS_EMAIL_MESSAGE, statusSubscribeSchema } from "@/shared/schemas";

export const SUBSCRIBE_ANSWER = "Check your inbox: we've sent you a link to confirm your status updates.";
export const EMAIL_MESSAGE = STATUS_EMAIL_MESSAGE;
const INCIDENT_STATUS_WORDS: Record<string, string> = {
  investigating: "Investigating",
  identified: "Cause found",
  monitoring: "Fix in place, watching",
  resolved: "Resolved",
};

const hash = (token: string) => createHash("sha256").update(token).digest("base64url");
const newToken = () => randomBytes(24).toString("base64url");
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[c]};`);

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

/** Queues the notice of an incident's change to every confirmed subscriber, once per change. */
export async function notifySubscribers(app: FastifyInstance, incidentId: string, opened: boolean): Promise<number> {
  const [incident] = await app.db.select().from(incidents).where(eq(incidents.id, incidentId));
  if (!incident) return 0;
  const subscribers = await app.db
    .select()
    .from(statusSubscribers)
    .where(and(isNotNull(statusSubscribers.confirmed_at), isNull(statusSubscribers.unsubscribed_at)));
  if (subscribers.length === 0) return 0;
  const business = await loadBusiness(app);
  const resolved = incident.resolved_at !== null || incident.status === "resolved";
  const stage = resolved ? "Resolved" : opened ? "New" : "Update";
  const state = INCIDENT_STATUS_WORDS[incident.status] ?? incident.status;
  const maintenance = incident.impact === "maintenance";
  await app.db.transaction(async (tx) => {
    for (const subscriber of subscribers) {
      const unsubscribe = `${business.publicUrl}/api/status/unsubscribe?token=${encodeURIComponent(subscriber.unsubscribe_token)}`;
      await enqueue(tx, {
        channel: "email",
        recipient: subscriber.email,
        subject: `${business.companyName} status — ${stage}: ${incident.title}`,
        body: [
          `${stage}: ${incident.title}`,
          `${maintenance ? "Planned maintenance" : "Status"}: ${state}`,
          incident.body ? `\n${incident.body}` : "",
          `\nFollow it on our status page: ${business.publicUrl}/status`,
          `\nYou asked for status updates from ${business.companyName}. To stop them: ${unsubscribe}`,
          `\n${signOff(business)}`,
        ]
          .filter(Boolean)
          .join("\n"),
        kind: "status-update",
        dedupe_key: `status:${incident.id}:${incident.updated_at.getTime()}:${subscriber.id}`,
      });
    }
  });
  app.outbox.nudge();
  return subscribers.length;
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
    const parsed = statusSubscribeSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(EMAIL_MESSAGE, { email: EMAIL_MESSAGE });
    const email = parsed.data.email.toLowerCase();
    const business = await loadBusiness(app);
    await app.db.transaction(async (tx) => {
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
