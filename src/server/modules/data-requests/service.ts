// Correction and erasure requests (POPIA s24; issue 46 item 7; docs/architecture.md, "Sessions and
// who may do what"). A client asks from the portal; the request is due DATA_REQUEST_DAYS on (PAIA's
// 30 days) and the owner is alerted; the owner's queue (GET /api/admin/data-requests) shows it
// with its due date, and the owner answers once:
//   - correct: the client's details changed through the normal client edit (patchClient, audited);
//   - refuse: with a reason the client is told (and where to complain);
//   - erase: the person de-identified — name, contacts, notes, billing details, MAC, messages'
//     contents, their lead rows, codes, sessions ended — while the tax records are kept (invoices,
//     credit notes and payments with their amounts and the invoice's legal details: Tax
//     Administration Act s29, five years; POPIA s14 allows it); the panel line left on or switched
//     off (through the lifecycle) as the owner chooses; audited without the erased values.
// The client is told on their channel what was done (for an erasure, queued before their contacts
// go: that one message keeps its address until it is sent). Each answer claims the open request
// under its row lock, so it happens once; a second request of a kind while one is open is a 409
// naming it (the partial unique index data_requests_one_open holds it under races too).
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { deleteSessionsFor } from "@/server/auth/sessions";
import type { Db } from "@/server/db/client";
import {
  auditLog,
  capturedPayments,
  clients,
  contentRequests,
  dataRequests,
  leads,
  lineMacChanges,
  outbox,
  passwordResetTokens,
  statusSubscribers,
  trials,
  verificationCodes,
  whatsappMessages,
  whatsappWindows,
} from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { preferredContact } from "@/server/lib/contact";
import { conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { adminActor, applyChange, loadRules } from "@/server/lib/lifecycle";
import { enqueue } from "@/server/lib/outbox";
import { alertOwner, type OwnerAlert } from "@/server/lib/owner-alerts";
import { patchClient } from "@/server/modules/admin-business/client-service";
import {
  type AdminDataRequestView,
  DATA_REQUEST_DAYS,
  DATA_REQUEST_KIND_LABELS,
  type DataRequestKind,
  type DataRequestStatus,
  type DataRequestView,
  ERASURE_KEEPS,
} from "@/shared/data-request-schemas";
import { formatDate } from "@/shared/dates";

type Row = typeof dataRequests.$inferSelect;
type ClientRow = typeof clients.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The outbox kind of what the client is told about their request. */
export const DATA_REQUEST_KIND = "data-request";
/** What an erased name reads as, everywhere it was. */
export const ERASED_NAME = "Erased client";
const ERASED_TEXT = "[erased]";

export function toView(row: Row): DataRequestView {
  return {
    id: row.id,
    kind: row.kind as DataRequestKind,
    details: row.details,
    correction: row.correction,
    status: row.status as DataRequestStatus,
    due_at: row.due_at.toISOString(),
    outcome: row.outcome,
    resolved_at: row.resolved_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

const publicUrlOf = (app: FastifyInstance) => (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");

function requestAlert(app: FastifyInstance, row: Row, client: ClientRow): OwnerAlert {
  const what = row.kind === "erasure" ? "deletion of their data" : "correction of their data";
  return {
    cause: "privacy-request",
    dedupeKey: `owner-alert:privacy-request:${row.id}`,
    subject: `Privacy request: ${client.full_name} asks for a ${what} (answer by ${formatDate(row.due_at)})`,
    body: [
      `${client.full_name} asked for a ${what} (POPIA section 24). The law expects an answer as soon as reasonably practicable; answer by ${formatDate(row.due_at)}.`,
      row.details ? `What they wrote: ${row.details}` : "",
      row.correction ? `What it should say: ${row.correction}` : "",
      "",
      `Correct, refuse with a reason, or erase here: ${publicUrlOf(app)}/admin/privacy-requests`,
    ]
      .filter((line, i, all) => line !== "" || all[i - 1] !== "")
      .join("\n"),
  };
}

/** In `tx`: the client told on their preferred channel (nothing without a usable contact). */
async function tellClient(tx: Tx, row: Row, client: ClientRow, subject: string, body: string): Promise<boolean> {
  const to = preferredContact(client);
  if (!to) return false;
  await enqueue(tx, {
    channel: to.channel,
    recipient: to.recipient,
    subject: to.channel === "email" ? subject : undefined,
    body: `Hi ${client.full_name.split(/\s+/)[0]},\n\n${body}`,
    kind: DATA_REQUEST_KIND,
    client_id: client.id,
    dedupe_key: `data-request:${row.id}:${row.status}`,
  });
  return true;
}

// ---- the client's side ---------------------------------------------------------------------------

export async function listOwn(app: FastifyInstance, clientId: string): Promise<DataRequestView[]> {
  const rows = await app.db
    .select()
    .from(dataRequests)
    .where(eq(dataRequests.client_id, clientId))
    .orderBy(desc(dataRequests.created_at), asc(dataRequests.id));
  return rows.map(toView);
}

function alreadyOpen(row: Pick<Row, "kind" | "created_at" | "due_at">) {
  const what = DATA_REQUEST_KIND_LABELS[row.kind as DataRequestKind].toLowerCase();
  const message = `You already asked for a ${what} on ${formatDate(row.created_at)}; we will answer it by ${formatDate(row.due_at)}.`;
  return conflict(message, { kind: message });
}

export async function createRequest(
  app: FastifyInstance,
  client: ClientRow,
  input: { kind: DataRequestKind; details: string; correction?: string },
  now = new Date(),
): Promise<DataRequestView> {
  const openOne = async () =>
    (
      await app.db
        .select()
        .from(dataRequests)
        .where(and(eq(dataRequests.client_id, client.id), eq(dataRequests.kind, input.kind), eq(dataRequests.status, "open")))
    )[0];
  const open = await openOne();
  if (open) throw alreadyOpen(open);
  try {
    const row = await app.db.transaction(async (tx) => {
      const [made] = await tx
        .insert(dataRequests)
        .values({
          client_id: client.id,
          kind: input.kind,
          details: input.details,
          correction: input.correction ?? "",
          due_at: new Date(now.getTime() + DATA_REQUEST_DAYS * 86_400_000),
          created_at: now,
        })
        .returning();
      await alertOwner(app, tx, requestAlert(app, made, client));
      return made;
    });
    app.outbox.nudge();
    return toView(row);
  } catch (error) {
    if (uniqueViolation(error) === "data_requests_one_open") {
      const raced = await openOne();
      if (raced) throw alreadyOpen(raced);
    }
    throw error;
  }
}

// ---- the owner's queue ----------------------------------------------------------------------------

export async function listForOwner(app: FastifyInstance, status: "open" | "all", now = new Date()) {
  const rows = await app.db
    .select({ request: dataRequests, client_name: clients.full_name })
    .from(dataRequests)
    .innerJoin(clients, eq(clients.id, dataRequests.client_id))
    .where(status === "open" ? eq(dataRequests.status, "open") : undefined)
    // open first, the soonest due first; then the answered ones, newest first
    .orderBy(sql`(${dataRequests.status} = 'open') desc`, asc(dataRequests.due_at), desc(dataRequests.created_at));
  const data: AdminDataRequestView[] = rows.map(({ request, client_name }) => ({
    ...toView(request),
    client_id: request.client_id,
    client_name,
    overdue: request.status === "open" && request.due_at.getTime() < now.getTime(),
  }));
  return { data, total: data.length };
}

/** The open request, locked for its one answer; 404 when none, 409 when already answered. */
async function claimOpen(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx.select().from(dataRequests).where(eq(dataRequests.id, id)).for("update");
  if (!row) throw notFound("No privacy request with that id.");
  if (row.status !== "open") {
    const message = `This request was already answered (${row.status}).`;
    throw conflict(message);
  }
  return row;
}

async function resolve(tx: Tx, request: FastifyRequest, row: Row, status: DataRequestStatus, outcome: string): Promise<Row> {
  const [done] = await tx
    .update(dataRequests)
    .set({ status, outcome, resolved_at: new Date(), resolved_by: request.admin?.id ?? null, updated_at: new Date() })
    .where(and(eq(dataRequests.id, row.id), eq(dataRequests.status, "open")))
    .returning();
  await audit(tx, request, {
    action: `data-request-${status}`,
    resource: "data_requests",
    resourceId: row.id,
    before: { status: row.status },
    after: { status, kind: row.kind, client_id: row.client_id, outcome },
  });
  return done;
}

const clientOf = async (db: Pick<Db, "select">, id: string): Promise<ClientRow> => {
  const [client] = await db.select().from(clients).where(eq(clients.id, id));
  if (!client) throw notFound("No client with that id.");
  return client;
};

/** The kind of request `id` is (404 when there is none). */
export async function requestKind(app: FastifyInstance, id: string): Promise<DataRequestKind> {
  const [row] = await app.db.select({ kind: dataRequests.kind }).from(dataRequests).where(eq(dataRequests.id, id));
  if (!row) throw notFound("No privacy request with that id.");
  return row.kind as DataRequestKind;
}

/** The correction made through the client edit (audited there), then the request answered and the client told. */
export async function correctRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  input: { changes: Parameters<typeof patchClient>[3]; note: string },
): Promise<AdminDataRequestView> {
  const [open] = await app.db.select().from(dataRequests).where(eq(dataRequests.id, id));
  if (!open) throw notFound("No privacy request with that id.");
  if (open.status !== "open") throw conflict(`This request was already answered (${open.status}).`);
  if (open.kind !== "correction") throw conflict("This is a deletion request: erase or refuse it.");
  await patchClient(app, request, open.client_id, input.changes);
  const outcome = input.note || "We corrected your details as you asked.";
  const row = await app.db.transaction(async (tx) => {
    const claimed = await claimOpen(tx, id);
    const done = await resolve(tx, request, claimed, "corrected", outcome);
    const client = await clientOf(tx, done.client_id);
    await tellClient(tx, done, client, "Your details were corrected", `${outcome}\n\nYou can see your details in your client portal.`);
    return done;
  });
  app.outbox.nudge();
  return withClient(app, row);
}

export async function refuseRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  reason: string,
): Promise<AdminDataRequestView> {
  const row = await app.db.transaction(async (tx) => {
    const claimed = await claimOpen(tx, id);
    const done = await resolve(tx, request, claimed, "refused", reason);
    const client = await clientOf(tx, done.client_id);
    const what = DATA_REQUEST_KIND_LABELS[done.kind as DataRequestKind].toLowerCase();
    await tellClient(
      tx,
      done,
      client,
      `Your ${what} request`,
      [
        `We did not make the ${what} you asked for on ${formatDate(done.created_at)}, because: ${reason}`,
        "",
        "If you disagree, reply to this message. You may also complain to the Information Regulator (https://inforegulator.org.za).",
      ].join("\n"),
    );
    return done;
  });
  app.outbox.nudge();
  return withClient(app, row);
}

/** The fields erasure removes from the client's row (named in the audit log, never their values). */
const ERASED_CLIENT_FIELDS = [
  "username",
  "password_hash",
  "full_name",
  "email",
  "whatsapp",
  "notes",
  "device",
  "internet_platform",
  "line_mac",
  "billing_company",
  "billing_address",
  "billing_vat_number",
  "marketing_opt_in",
] as const;

/** Personal keys scrubbed from the audit log's copies of the client's row. */
const AUDIT_PERSONAL_KEYS = new Set<string>([...ERASED_CLIENT_FIELDS, "name", "line_password", "line_username"]);

function scrubbed(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, AUDIT_PERSONAL_KEYS.has(k) ? ERASED_TEXT : v]),
  );
}

export async function eraseRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  input: { line: "keep" | "disable" },
): Promise<AdminDataRequestView> {
  const rules = input.line === "disable" ? await loadRules(app) : null;
  const row = await app.db.transaction(async (tx) => {
    const claimed = await claimOpen(tx, id);
    if (claimed.kind !== "erasure") throw conflict("This is a correction request: correct or refuse it.");
    const done = await resolve(tx, request, claimed, "erased", "Your personal data was erased.");
    const client = await clientOf(tx, done.client_id);
    // told first, while their contacts are still on the row: this one message keeps its address
    await tellClient(
      tx,
      done,
      client,
      "Your data was erased",
      [
        "As you asked, we erased your personal data: your name, e-mail address, WhatsApp number, notes, box MAC address, the contents of our messages to and from you, your orders and enquiries, and your sign-in (your portal account is closed).",
        "",
        ERASURE_KEEPS,
        input.line === "disable" ? "\nYour line has been switched off." : "",
      ].join("\n"),
    );
    if (rules && client.status !== "suspended") {
      // through the lifecycle, which queues the panel's disable_line (refused for a client with no running line: nothing to switch off)
      await applyChange(tx, {
        clientId: client.id,
        cause: { kind: "admin-suspend" },
        causeKey: `erase:${done.id}`,
        actor: adminActor(request),
        rules,
        reason: "Erased at the client's request (POPIA s24)",
      });
    }
    await deIdentify(tx, client, done.id);
    await audit(tx, request, {
      action: "erase",
      resource: "clients",
      resourceId: client.id,
      before: { erased_fields: ERASED_CLIENT_FIELDS },
      after: { request: done.id, line: input.line, kept: ["invoices", "credit_notes", "captured_payments"] },
    });
    return done;
  });
  app.outbox.nudge();
  return withClient(app, row);
}

/** Everything that names the person, removed; the tax records (invoices, credit notes, payments' amounts) left. */
async function deIdentify(tx: Tx, client: ClientRow, requestId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(clients)
    .set({
      username: `erased-${client.id}`,
      password_hash: `!erased:${randomBytes(16).toString("hex")}`,
      full_name: ERASED_NAME,
      email: "",
      whatsapp: "",
      notes: "",
      device: "",
      internet_platform: "",
      line_mac: "",
      billing_company: "",
      billing_address: "",
      billing_vat_number: "",
      marketing_opt_in: false,
      marketing_opt_in_at: null,
      updated_at: now,
    })
    .where(eq(clients.id, client.id));
  await deleteSessionsFor(tx as unknown as Db, { clientId: client.id });
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.client_id, client.id));
  await tx.delete(verificationCodes).where(eq(verificationCodes.client_id, client.id));
  await tx.delete(statusSubscribers).where(eq(statusSubscribers.client_id, client.id));
  await tx.delete(contentRequests).where(eq(contentRequests.client_id, client.id));
  await tx.update(lineMacChanges).set({ old_mac: "", new_mac: "" }).where(eq(lineMacChanges.client_id, client.id));
  await tx.update(dataRequests).set({ details: "", correction: "", updated_at: now }).where(eq(dataRequests.client_id, client.id));
  // the owner's alerts about their requests named them and quoted what they wrote
  const theirRequests = (await tx.select({ id: dataRequests.id }).from(dataRequests).where(eq(dataRequests.client_id, client.id))).map(
    (r) => `owner-alert:privacy-request:${r.id}`,
  );
  await tx
    .update(outbox)
    .set({ subject: "Privacy request (client erased)", body: ERASED_TEXT, wa_link: null, template_vars: {}, updated_at: now })
    .where(or(...theirRequests.map((key) => sql`${outbox.dedupe_key} like ${`${key}%`}`)));

  const theirLeads = (await tx.select({ id: leads.id }).from(leads).where(eq(leads.client_id, client.id))).map((l) => l.id);
  if (theirLeads.length) {
    // the unique trial indexes hold one key per lead, so each keeps a key of its own that names nobody
    await tx
      .update(leads)
      .set({
        name: ERASED_NAME,
        email: "",
        whatsapp: "",
        whatsapp_digits: sql`'erased:' || ${leads.id}`,
        email_key: sql`'erased:' || ${leads.id}`,
        device: "",
        internet_platform: "",
        other_platform: "",
        internet_speed: "",
        payload: {},
        ip: "",
        notes: "",
        updated_at: now,
      })
      .where(inArray(leads.id, theirLeads));
    await tx.update(trials).set({ recipient: "" }).where(inArray(trials.lead_id, theirLeads));
    await tx.delete(verificationCodes).where(inArray(verificationCodes.lead_id, theirLeads));
  }

  // messages: the contents and addresses go; the erasure notice just queued keeps its address until sent
  const theirMessages = or(eq(outbox.client_id, client.id), theirLeads.length ? inArray(outbox.lead_id, theirLeads) : undefined);
  const notice = `data-request:${requestId}:erased`;
  await tx
    .update(outbox)
    .set({ status: "failed", last_error: "Not sent: the client's data was erased at their request." })
    .where(and(theirMessages, inArray(outbox.status, ["pending", "owner"]), sql`${outbox.dedupe_key} is distinct from ${notice}`));
  await tx
    .update(outbox)
    .set({ recipient: "", subject: ERASED_TEXT, body: ERASED_TEXT, wa_link: null, secret_enc: null, template_vars: {}, updated_at: now })
    .where(and(theirMessages, sql`${outbox.dedupe_key} is distinct from ${notice}`));
  const number = client.whatsapp.replace(/\D/g, "");
  if (number) {
    await tx.delete(whatsappMessages).where(eq(whatsappMessages.number, number));
    await tx.delete(whatsappWindows).where(eq(whatsappWindows.number, number));
  }
  // payments stay (the tax records); the address the payer typed on them goes
  await tx.update(capturedPayments).set({ client_email: "" }).where(eq(capturedPayments.client_id, client.id));

  // the audit log keeps what was done, not the erased values
  const entries = await tx
    .select({ id: auditLog.id, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.resource, "clients"), eq(auditLog.resource_id, client.id), ne(auditLog.action, "erase")));
  for (const entry of entries) {
    await tx
      .update(auditLog)
      .set({ before: scrubbed(entry.before) as never, after: scrubbed(entry.after) as never })
      .where(eq(auditLog.id, entry.id));
  }
}

async function withClient(app: FastifyInstance, row: Row): Promise<AdminDataRequestView> {
  const [client] = await app.db.select({ full_name: clients.full_name }).from(clients).where(eq(clients.id, row.client_id));
  return {
    ...toView(row),
    client_id: row.client_id,
    client_name: client?.full_name ?? "",
    overdue: row.status === "open" && row.due_at.getTime() < Date.now(),
  };
}
