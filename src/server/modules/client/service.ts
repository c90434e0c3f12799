// What every client-portal route needs: the signed-in client's own row (always by the id the
// session guard put on the request, never one from the URL or body), its views, and the
// validation helper that turns a zod failure into the API's 400.
import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { subscriberUrls } from "@/server/adapters/panel/panel";
import { clients, lineMacChanges } from "@/server/db/schema";
import type { BusinessProfile } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { badRequest, unauthorized } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { magPortalUrl } from "@/server/modules/panel/messages";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import {
  type ClientAccountStatus,
  type ClientLine,
  type ClientProfile,
  type ClientSummary,
  type CommunicationMethod,
  daysLeft,
  subscriptionStatus,
} from "@/shared/client-schemas";
import { isLineType, needsMac } from "@/shared/device-lines";
import { CLIENT_STATUSES } from "@/shared/lifecycle";
import { DEVICE_LABELS, type DeviceValue } from "@/shared/options";
import { passwordChangedMessage } from "./messages";

export type ClientRow = typeof clients.$inferSelect;

const ACCOUNT_STATUSES: readonly ClientAccountStatus[] = CLIENT_STATUSES;

/** The signed-in client's id; requireClient must have run. */
export function signedInId(request: FastifyRequest): string {
  if (!request.client) throw unauthorized("Please sign in to your client portal.");
  return request.client.id;
}

/** The signed-in client's row (a client deleted mid-session reads as signed out). */
export async function loadOwnClient(app: FastifyInstance, request: FastifyRequest): Promise<ClientRow> {
  const [row] = await app.db
    .select()
    .from(clients)
    .where(eq(clients.id, signedInId(request)))
    .limit(1);
  if (!row) throw unauthorized("Please sign in to your client portal.");
  return row;
}

export function accountStatus(status: string): ClientAccountStatus {
  return (ACCOUNT_STATUSES as readonly string[]).includes(status) ? (status as ClientAccountStatus) : "pending";
}

export function toSummary(row: Pick<ClientRow, "id" | "username" | "full_name" | "status">): ClientSummary {
  return { id: row.id, username: row.username, full_name: row.full_name, status: accountStatus(row.status) };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The line as the portal shows it, its links built on the server the line was made for, else the
 * stream URL in use now (a line typed in by hand may have none of its own): absolute links and a
 * QR code in every panel mode.
 */
function lineOf(row: ClientRow, streamUrl: string, pendingMac: PendingMac): ClientLine {
  const type = lineTypeOf(row);
  // A MAG box is pointed at the panel's portal (the URL its line was made with, else the one under the stream URL now).
  const server = row.line_portal_url || (type === "mag" && streamUrl ? magPortalUrl(streamUrl) : streamUrl);
  const urls = subscriberUrls(server, { username: row.line_username, password: row.line_password });
  return {
    type,
    mac: type === "m3u" ? "" : row.line_mac,
    mac_change: pendingMac ? { new_mac: pendingMac.new_mac, requested_at: pendingMac.created_at.toISOString() } : null,
    self_service: row.panel_line_id !== null,
    username: row.line_username,
    password: row.line_password,
    portal_url: server,
    server_url: urls.server_url,
    m3u_url: server ? urls.m3u_url : "",
    epg_url: server ? urls.epg_url : "",
    expires_at: iso(row.line_expires_at),
    is_test: row.line_is_test,
  };
}

const lineTypeOf = (row: Pick<ClientRow, "line_type">) => (isLineType(row.line_type) ? row.line_type : "m3u");

/** A box's MAC change asked for in the portal and not yet made on the panel. */
type PendingMac = { new_mac: string; created_at: Date } | null;

/** The profile as the portal reads it: the stream URL in use now and a MAC change still under way. */
export async function loadProfile(app: FastifyInstance, row: ClientRow): Promise<ClientProfile> {
  const [pending] = await app.db
    .select({ new_mac: lineMacChanges.new_mac, created_at: lineMacChanges.created_at })
    .from(lineMacChanges)
    .where(and(eq(lineMacChanges.client_id, row.id), eq(lineMacChanges.status, "pending")))
    .orderBy(desc(lineMacChanges.created_at))
    .limit(1);
  return toProfile(row, await currentStreamUrl(app), new Date(), pending ?? null);
}

/** `streamUrl`: the stream URL in use now (currentStreamUrl), for a line that has none of its own. */
export function toProfile(row: ClientRow, streamUrl: string, now = new Date(), pendingMac: PendingMac = null): ClientProfile {
  const status = accountStatus(row.status);
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    email: row.email,
    whatsapp: row.whatsapp,
    communication_method: (row.communication_method === "email" ? "email" : "whatsapp") as CommunicationMethod,
    marketing_opt_in: row.marketing_opt_in,
    marketing_opt_in_at: iso(row.marketing_opt_in_at),
    status,
    subscription: {
      status: subscriptionStatus(row, now),
      package: row.package_name,
      package_id: row.package_id,
      start: iso(row.subscription_start),
      end: iso(row.subscription_end),
      days_left: daysLeft(row.subscription_end, now),
    },
    device: row.device,
    device_label: DEVICE_LABELS[row.device as DeviceValue] ?? row.device,
    internet_platform: row.internet_platform,
    // Withheld while suspended: the line is the service itself. No login yet: no line.
    // (A box's line is known by its MAC: its id on the panel is enough.)
    line:
      status === "suspended" || !(row.line_username || (needsMac(lineTypeOf(row)) && row.panel_line_id))
        ? null
        : lineOf(row, streamUrl, pendingMac),
    created_at: row.created_at.toISOString(),
  };
}

/** The form's values, or a 400 whose message is the first problem and whose fields name each one. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] ??= issue.message;
  }
  throw badRequest(Object.values(fields)[0] ?? "Please check the information you entered.", fields);
}

/** Resolves no sooner than `ms` after `startedAt`: answers that must not reveal how much work was done. */
export async function notBefore(startedAt: number, ms: number): Promise<void> {
  const wait = startedAt + ms - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * In the caller's transaction, queues the notice that the client's password changed, on their
 * preferred channel (nothing when they have no usable contact).
 */
export async function queuePasswordChanged(
  tx: Parameters<typeof enqueue>[0],
  business: BusinessProfile,
  client: ClientRow,
  facts: { at: Date; signedOut: "everywhere" | "other-devices" },
): Promise<void> {
  const contact = preferredContact(client);
  if (!contact) return;
  const message = passwordChangedMessage(business, { name: client.full_name, username: client.username, ...facts });
  await enqueue(tx, { ...contact, subject: message.subject, body: message.body, kind: "password-changed", client_id: client.id });
}
