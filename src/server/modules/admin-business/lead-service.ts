// Leads as the business works them: the list (and its CSV), status and notes, the one-click
// WhatsApp, and the conversion of a lead into a client with a portal account and a welcome.
import { and, count, eq, gte, ilike, isNull, like, lt, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { LEAD_SORTS, LeadConvert, LeadListQuery, LeadPatch } from "../../../shared/business-schemas";
import { normaliseWhatsAppNumber } from "../../../shared/whatsapp";
import { generatePassword, hashPassword } from "../../auth/passwords";
import { downloads, leads, packages } from "../../db/schema";
import { audit } from "../../lib/audit";
import { type BusinessProfile, loadBusiness } from "../../lib/business";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { enqueueAll } from "../../lib/outbox";
import { packageMonths, paidEnd, trialEnd } from "../../lib/subscriptions";
import { insertClient } from "./client-service";
import { leadWhatsAppUrl, welcomeMessages } from "./messages";
import { containsPattern, dateRange, ordering, pageWindow, phoneSearchDigits } from "./query";

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

/** A lead as the admin sees it: without the replay key, with the one-click WhatsApp link. */
export function adminLead(lead: Lead, business: BusinessProfile) {
  const { idempotency_key: _key, ...rest } = lead;
  return { ...rest, whatsapp_url: leadWhatsAppUrl(lead, business) };
}

export function leadWhere(query: Omit<LeadListQuery, "page" | "pageSize" | "sort" | "dir">): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const digits = phoneSearchDigits(query.q);
    conditions.push(
      or(
        ilike(leads.name, pattern),
        ilike(leads.email, pattern),
        ilike(leads.package_name, pattern),
        digits ? like(leads.whatsapp_digits, containsPattern(digits)) : undefined,
      ),
    );
  }
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
    .select()
    .from(leads)
    .where(where)
    .orderBy(...ordering(SORT_COLUMNS[query.sort], query.dir, leads.id))
    .offset(offset)
    .$dynamic();
  const [data, [{ n }], business] = await Promise.all([
    limit ? rows.limit(limit) : rows,
    app.db.select({ n: count() }).from(leads).where(where),
    loadBusiness(app),
  ]);
  return { data: data.map((lead) => adminLead(lead, business)), total: n };
}

async function findLead(app: FastifyInstance, id: string): Promise<Lead> {
  const [lead] = await app.db.select().from(leads).where(eq(leads.id, id));
  if (!lead) throw notFound("No lead with that id.");
  return lead;
}

export async function getLead(app: FastifyInstance, id: string) {
  const [lead, business] = await Promise.all([findLead(app, id), loadBusiness(app)]);
  return adminLead(lead, business);
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
  return adminLead(after, business);
}

// ---- conversion --------------------------------------------------------------------------------

/** The featured (else first) active app that runs on this device, for the welcome's install guide. */
async function appForDevice(app: FastifyInstance, device: string) {
  if (!device) return null;
  const [row] = await app.db
    .select({ name: downloads.name, download_url: downloads.download_url, installation_guide: downloads.installation_guide })
    .from(downloads)
    .where(and(eq(downloads.is_active, true), sql`${downloads.device_compatibility} @> ${JSON.stringify([device])}::jsonb`))
    .orderBy(sql`${downloads.is_featured} desc`, downloads.sort_order, downloads.name)
    .limit(1);
  return row ?? null;
}

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
 * Makes the client: their details from the lead, a portal password (answered once), the
 * package and period (a trial is 24 hours; paid time is the package's months from the start),
 * the lead marked converted, and the welcome queued — all in one transaction. A second
 * conversion of the same lead is a 409, also when two race.
 */
export async function convertLead(app: FastifyInstance, request: FastifyRequest, id: string, input: LeadConvert) {
  const lead = await findLead(app, id);
  if (lead.client_id) throw conflict(ALREADY_CONVERTED);
  const status = input.status ?? (isFreeTrialLead(lead) ? "trial" : "active");
  const pkg = await packageFor(app, lead, input.package_id);
  const start = input.start ? new Date(input.start) : new Date();
  let end: Date;
  if (status === "trial") end = trialEnd(start);
  else {
    const months = packageMonths(pkg);
    if (!months) {
      const message = pkg ? "That package has no length in months." : "Choose the package they are paying for.";
      throw badRequest(message, { package_id: message });
    }
    end = paidEnd(start, months);
  }

  const whatsapp = normaliseWhatsAppNumber(lead.whatsapp);
  const email = lead.email.trim();
  // Their chosen channel, unless it has no address and the other one does.
  const method =
    lead.communication_method === "email" ? (email || !whatsapp ? "email" : "whatsapp") : whatsapp || !email ? "whatsapp" : "email";
  const [business, appGuide] = await Promise.all([loadBusiness(app), appForDevice(app, lead.device)]);
  const password = generatePassword();
  const now = new Date();

  const { client, result: converted } = await insertClient(
    app,
    request,
    {
      full_name: lead.name,
      email,
      whatsapp,
      communication_method: method,
      marketing_opt_in: lead.marketing_opt_in,
      // Consent was given with the lead's submission.
      marketing_opt_in_at: lead.marketing_opt_in ? lead.created_at : null,
      package_id: pkg?.id ?? null,
      package_name: pkg?.name ?? lead.package_name,
      status,
      subscription_start: start,
      subscription_end: end,
      device: lead.device,
      internet_platform: lead.internet_platform === "other" && lead.other_platform ? lead.other_platform : lead.internet_platform,
      password_hash: await hashPassword(password),
    },
    { explicit: input.username, from: lead.name },
    async (tx, client) => {
      const [updated] = await tx
        .update(leads)
        .set({ status: "converted", client_id: client.id, updated_at: now })
        .where(and(eq(leads.id, id), isNull(leads.client_id)))
        .returning();
      // Another conversion won the race: this transaction (and its client) is rolled back.
      if (!updated) throw conflict(ALREADY_CONVERTED);
      await enqueueAll(tx, welcomeMessages(business, { client, app: appGuide }));
      await audit(tx, request, { action: "convert", resource: "leads", resourceId: id, before: lead, after: updated });
      return updated;
    },
  );
  app.outbox.nudge();
  const { password_hash: _hidden, ...publicClient } = client;
  return { client: publicClient, password, lead: adminLead(converted, business) };
}
