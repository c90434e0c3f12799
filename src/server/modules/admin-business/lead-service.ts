// Leads as the business works them: the list (and its CSV), status and notes, the one-click
// WhatsApp, and the conversion of a lead into a client with a portal account and a welcome,
// or, for a returning client, the renewal of the account they already have. A conversion
// gives no time: a new client is pending (or on a free trial); time comes from money.
import { and, count, eq, getTableColumns, gte, lt, ne, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { clients, leads, packages } from "@/server/db/schema";
import { insertClientFromLead, maskedHint } from "@/server/lib/accounts";
import { audit } from "@/server/lib/audit";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { badRequest, conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { adminActor, applyOrRefuse, loadRules } from "@/server/lib/lifecycle";
import { dateRange, ordering, pageWindow, searchCondition } from "@/server/lib/list-query";
import { enqueueAll } from "@/server/lib/outbox";
import type { LEAD_SORTS, LeadConvert, LeadListQuery, LeadPatch } from "@/shared/business-schemas";
import { queueWelcome, type Tx, toPublicClient, USERNAME_TAKEN } from "./client-service";
import { leadWhatsAppUrl, renewalMessages } from "./messages";

type Lead = typeof leads.$inferSelect;

export const ALREADY_CONVERTED = "This lead is already a client.";

const SORT_COLUMNS = {
  created_at: leads.created_at,
  updated_at: leads.updated_at,
  name: leads.name,
  status: leads.status,
  form_type: leads.form_type,
  package_name: leads.package_name,
} satisfies Record<(typeof LEAD_SORTS)[number], unknown>;

type LinkedClient = { id: string; username: string; full_name: string; status: string } | null;

/** A lead as the admin sees it: without the replay key, with the one-click WhatsApp link and the client it is. */
export function adminLead(lead: Lead, business: BusinessProfile, client: LinkedClient = null) {
  const { idempotency_key: _key, ...rest } = lead;
  return { ...rest, client: client?.id ? client : null, whatsapp_url: leadWhatsAppUrl(lead, business) };
}

/** The lead's columns with the client it is (a returning client, or the one it became). */
const leadWithClient = {
  ...getTableColumns(leads),
  linked_id: clients.id,
  linked_username: clients.username,
  linked_full_name: clients.full_name,
  linked_status: clients.status,
};
type LeadWithClient = Lead & {
  linked_id: string | null;
  linked_username: string | null;
  linked_full_name: string | null;
  linked_status: string | null;
};

function splitLinked(row: LeadWithClient): [Lead, LinkedClient] {
  const { linked_id, linked_username, linked_full_name, linked_status, ...lead } = row;
  return [
    lead,
    linked_id ? { id: linked_id, username: linked_username ?? "", full_name: linked_full_name ?? "", status: linked_status ?? "" } : null,
  ];
}

export function leadWhere(query: Omit<LeadListQuery, "page" | "pageSize" | "sort" | "dir">): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) conditions.push(searchCondition(query.q, [leads.name, leads.email, leads.package_name], leads.whatsapp_digits));
  if (query.status) conditions.push(eq(leads.status, query.status));
  if (query.form_type) conditions.push(eq(leads.form_type, query.form_type));
  const { from, toExclusive } = dateRange(query.from, query.to);
  if (from) conditions.push(gte(leads.created_at, from));
  if (toExclusive) conditions.push(lt(leads.created_at, toExclusive));
  return and(...conditions);
}

export async function listLeads(app: FastifyInstance, query: LeadListQuery, all = false) {
  const where = leadWhere(query);
  const { limit, offset } = pageWindow(query, all);
  const rows = app.db
    .select(leadWithClient)
    .from(leads)
    .leftJoin(clients, eq(clients.id, leads.client_id))
    .where(where)
    .orderBy(...ordering(SORT_COLUMNS[query.sort], query.dir, leads.id))
    .offset(offset)
    .$dynamic();
  const [data, [{ n }], business] = await Promise.all([
    limit ? rows.limit(limit) : rows,
    app.db.select({ n: count() }).from(leads).where(where),
    loadBusiness(app),
  ]);
  return {
    data: data.map((row) => {
      const [lead, client] = splitLinked(row);
      return adminLead(lead, business, client);
    }),
    total: n,
  };
}

async function findLead(app: FastifyInstance, id: string): Promise<Lead> {
  const [lead] = await app.db.select().from(leads).where(eq(leads.id, id));
  if (!lead) throw notFound("No lead with that id.");
  return lead;
}

async function linkedClient(app: FastifyInstance, lead: Lead): Promise<LinkedClient> {
  if (!lead.client_id) return null;
  const [client] = await app.db
    .select({ id: clients.id, username: clients.username, full_name: clients.full_name, status: clients.status })
    .from(clients)
    .where(eq(clients.id, lead.client_id));
  return client ?? null;
}

export async function getLead(app: FastifyInstance, id: string) {
  const [lead, business] = await Promise.all([findLead(app, id), loadBusiness(app)]);
  return adminLead(lead, business, await linkedClient(app, lead));
}

export async function patchLead(app: FastifyInstance, request: FastifyRequest, id: string, patch: LeadPatch) {
  const before = await findLead(app, id);
  const business = await loadBusiness(app);
  const after = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(leads)
      .set({ ...patch, updated_at: new Date() })
      .where(eq(leads.id, id))
      .returning();
    if (!row) throw notFound("No lead with that id.");
    await audit(tx, request, { action: "update", resource: "leads", resourceId: id, before, after: row });
    return row;
  });
  return adminLead(after, business, await linkedClient(app, after));
}

// ---- conversion --------------------------------------------------------------------------------

/** The package the admin chose, or the one whose name the lead asked for. */
async function packageFor(app: FastifyInstance, lead: Lead, packageId?: string) {
  if (packageId) {
    const [pkg] = await app.db.select().from(packages).where(eq(packages.id, packageId));
    if (!pkg) throw badRequest("That package does not exist.", { package_id: "That package does not exist." });
    return pkg;
  }
  if (!lead.package_name) return null;
  const [pkg] = await app.db
    .select()
    .from(packages)
    .where(sql`lower(${packages.name}) = lower(${lead.package_name})`)
    .orderBy(sql`${packages.is_active} desc`)
    .limit(1);
  return pkg ?? null;
}

const isFreeTrialLead = (lead: Lead) => lead.form_type === "free-trial" || lead.package_price.trim().toUpperCase() === "FREE";

/**
 * Makes the client: their details from the lead, the package they asked for, the lead marked
 * converted and the welcome with a link to choose their password queued (as a paid new account
 * gets it; no password is answered or promised), all in one transaction. The
 * account is pending until money comes, or starts the free trial now (a free-trial lead, length
 * from the settings). A lead from a returning client renews that client instead (see below). A
 * second conversion of the same lead is a 409, also when two race.
 */
export async function convertLead(app: FastifyInstance, request: FastifyRequest, id: string, input: LeadConvert) {
  const lead = await findLead(app, id);
  if (lead.status === "converted") throw conflict(ALREADY_CONVERTED);
  const pkg = await packageFor(app, lead, input.package_id);
  const [business, rules] = await Promise.all([loadBusiness(app), loadRules(app)]);
  if (lead.client_id) return renewReturningClient(app, request, lead, pkg, business);

  const start = input.start ?? (isFreeTrialLead(lead) ? "trial" : "pending");
  const now = new Date();
  const { client, converted, queuedTo } = await app.db
    .transaction(async (tx) => {
      let client = await insertClientFromLead(tx, lead, {
        username: input.username,
        packageId: pkg?.id ?? null,
        packageName: pkg?.name ?? lead.package_name,
      });
      await audit(tx, request, { action: "create", resource: "clients", resourceId: client.id, after: client });
      if (start === "trial") {
        const started = await applyOrRefuse(tx, {
          clientId: client.id,
          cause: { kind: "trial-started", hours: rules.trialHours },
          causeKey: `trial:${lead.id}`,
          actor: adminActor(request),
          rules,
          now,
        });
        client = started.client;
      }
      const converted = await markConverted(tx, lead, client.id, now);
      const queuedTo = await queueWelcome(tx, business, client, now, lead.id);
      await audit(tx, request, { action: "convert", resource: "leads", resourceId: id, before: lead, after: converted });
      return { client, converted, queuedTo };
    })
    .catch((error) => {
      if (input.username && uniqueViolation(error) === "clients_username_unique")
        throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
      throw error;
    });
  app.outbox.nudge();
  return {
    renewed: false as const,
    client: toPublicClient(client),
    queued_to: queuedTo,
    lead: adminLead(converted, business, { id: client.id, username: client.username, full_name: client.full_name, status: client.status }),
  };
}

/** Marks the lead converted to `clientId`; a lead another conversion took first rolls the caller back (409). */
async function markConverted(tx: Tx, lead: Lead, clientId: string, now: Date): Promise<Lead> {
  const [updated] = await tx
    .update(leads)
    .set({ status: "converted", client_id: clientId, updated_at: now })
    .where(and(eq(leads.id, lead.id), ne(leads.status, "converted")))
    .returning();
  if (!updated) throw conflict(ALREADY_CONVERTED);
  return updated;
}

/**
 * A lead from someone who is already a client: no second account. The lead is marked converted
 * to them, their package becomes the one they asked for, and they get a renewal link on their
 * channel. Their term changes only when they pay.
 */
async function renewReturningClient(
  app: FastifyInstance,
  request: FastifyRequest,
  lead: Lead,
  pkg: typeof packages.$inferSelect | null,
  business: BusinessProfile,
) {
  const now = new Date();
  const { client, converted, queuedTo } = await app.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(clients)
      .where(eq(clients.id, lead.client_id as string))
      .for("update");
    if (!before) throw notFound("The client this lead belongs to no longer exists.");
    const [client] = pkg
      ? await tx
          .update(clients)
          .set({ package_id: pkg.id, package_name: pkg.name, updated_at: now })
          .where(eq(clients.id, before.id))
          .returning()
      : [before];
    const converted = await markConverted(tx, lead, client.id, now);
    const renewal = renewalMessages(business, { client, leadId: lead.id });
    await enqueueAll(tx, renewal);
    await audit(tx, request, {
      action: "convert",
      resource: "leads",
      resourceId: lead.id,
      before: lead,
      after: { ...converted, renewed: true },
    });
    return { client, converted, queuedTo: renewal.map((m) => ({ channel: m.channel, hint: maskedHint(m.channel, m.recipient) })) };
  });
  app.outbox.nudge();
  return {
    renewed: true as const,
    client: toPublicClient(client),
    queued_to: queuedTo,
    lead: adminLead(converted, business, { id: client.id, username: client.username, full_name: client.full_name, status: client.status }),
  };
}
