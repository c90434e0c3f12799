// Messages to many clients at once (docs/architecture.md, "Integrations"):
//   POST /api/admin/broadcasts/preview {kind, status?, packageId?, expiringWithinDays?}
//        → {data: {count, email, whatsapp, unreachable, notOptedIn, sample}}: who it reaches, before sending
//   POST /api/admin/broadcasts {… , subject, body} + Idempotency-Key → 201 {data: {queued, …}}
// Marketing reaches only clients who agreed to offers (POPIA s69) and says how to stop; a
// service message reaches everyone the filter picks. Each client gets one outbox row on their
// own channel (the other one when theirs has no address), spread out at BROADCAST_PER_MINUTE;
// a retried send with the same key queues nothing twice. Audited.
import { randomUUID } from "node:crypto";
import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { requireAdmin } from "@/server/auth/guards";
import { clients } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { type BusinessProfile, loadBusiness, signOff } from "@/server/lib/business";
import { enqueue } from "@/server/lib/outbox";
import { parseBody } from "@/server/modules/admin-catalogue/validation";
import {
  BROADCAST_PER_MINUTE,
  type BroadcastAudience,
  type BroadcastPreview,
  broadcastAudienceSchema,
  broadcastSchema,
} from "@/shared/broadcast-schemas";
import { isValidEmail } from "@/shared/contact";

type Recipient = { id: string; name: string; channel: "email" | "whatsapp"; recipient: string };

const firstName = (name: string) => name.trim().split(/\s+/)[0] || "there";

/** The filter's clients, split into who can be reached (and how) and who cannot. */
async function audience(app: FastifyInstance, filter: BroadcastAudience, now = new Date()) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(clients.status, filter.status));
  if (filter.packageId) where.push(eq(clients.package_id, filter.packageId));
  if (filter.expiringWithinDays !== undefined) {
    where.push(
      gte(clients.subscription_end, now),
      lte(clients.subscription_end, new Date(now.getTime() + filter.expiringWithinDays * 86_400_000)),
    );
  }
  const rows = await app.db
    .select({
      id: clients.id,
      name: clients.full_name,
      username: clients.username,
      email: clients.email,
      whatsapp: clients.whatsapp,
      method: clients.communication_method,
      optedIn: clients.marketing_opt_in,
    })
    .from(clients)
    .where(where.length ? and(...where) : undefined)
    .orderBy(clients.full_name, clients.id);
  const reachable: Recipient[] = [];
  let unreachable = 0;
  let notOptedIn = 0;
  for (const row of rows) {
    if (filter.kind === "marketing" && !row.optedIn) {
      notOptedIn += 1;
      continue;
    }
    const email = row.email && isValidEmail(row.email) ? row.email.trim() : "";
    const whatsapp = row.whatsapp.replace(/\D/g, "");
    const order = row.method === "email" ? (["email", "whatsapp"] as const) : (["whatsapp", "email"] as const);
    const channel = order.find((c) => (c === "email" ? email : whatsapp));
    if (!channel) {
      unreachable += 1;
      continue;
    }
    reachable.push({ id: row.id, name: row.name || row.username, channel, recipient: channel === "email" ? email : whatsapp });
  }
  return { reachable, unreachable, notOptedIn };
}

function preview(found: Awaited<ReturnType<typeof audience>>): BroadcastPreview {
  const { reachable, unreachable, notOptedIn } = found;
  return {
    count: reachable.length,
    email: reachable.filter((r) => r.channel === "email").length,
    whatsapp: reachable.filter((r) => r.channel === "whatsapp").length,
    unreachable,
    notOptedIn,
    sample: reachable.slice(0, 5).map((r) => r.name),
  };
}

/** The message one client gets: their name, the owner's words, how to stop (marketing), who we are. */
export function broadcastBody(business: BusinessProfile, name: string, body: string, kind: BroadcastAudience["kind"]): string {
  const stop =
    kind === "marketing"
      ? `\n\nYou're getting this because you agreed to hear about our offers. To stop, reply STOP, or untick offers on your account page: ${business.publicUrl}/account-management`
      : "";
  return `Hi ${firstName(name)},\n\n${body}${stop}\n\n${signOff(business)}`;
}

const routes: FastifyPluginAsync = async (app) => {
  app.post("/admin/broadcasts/preview", { preHandler: requireAdmin }, async (request) => {
    const filter = parseBody(broadcastAudienceSchema, request.body);
    return { data: preview(await audience(app, filter)) };
  });

  app.post("/admin/broadcasts", { preHandler: requireAdmin }, async (request, reply) => {
    const input = parseBody(broadcastSchema, request.body);
    const header = request.headers["idempotency-key"];
    const key = typeof header === "string" && header.trim() ? header.trim().slice(0, 200) : randomUUID();
    const business = await loadBusiness(app);
    const found = await audience(app, input);
    const started = Date.now();
    await app.db.transaction(async (tx) => {
      for (const [index, to] of found.reachable.entries()) {
        await enqueue(tx, {
          channel: to.channel,
          recipient: to.recipient,
          subject: input.subject,
          body: broadcastBody(business, to.name, input.body, input.kind),
          kind: `broadcast-${input.kind}`,
          client_id: to.id,
          dedupe_key: `broadcast:${key}:${to.id}`,
          vars: { name: firstName(to.name), body: input.body },
          notBefore: new Date(started + Math.floor(index / BROADCAST_PER_MINUTE) * 60_000),
        });
      }
      await audit(tx, request, {
        action: "broadcast",
        resource: "outbox",
        resourceId: key,
        after: {
          kind: input.kind,
          subject: input.subject,
          status: input.status,
          packageId: input.packageId,
          expiringWithinDays: input.expiringWithinDays,
          queued: found.reachable.length,
        },
      });
    });
    app.outbox.nudge();
    const minutes = Math.ceil(found.reachable.length / BROADCAST_PER_MINUTE);
    return reply.status(201).send({ data: { ...preview(found), queued: found.reachable.length, minutes } });
  });
};

export default routes;
