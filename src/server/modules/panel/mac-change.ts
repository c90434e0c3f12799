// The portal's self-service for a box's line (issue 32 item 2), client session only:
//   POST /api/client/line/mac {mac} (Idempotency-Key) → 202 {data: the change}: the box's line
//        moves to a new MAC on the panel (a change_mac provisioning job: edit_mag / edit_enigma
//        with the MAC, which frees the old one). Once per request: the client and the key make the
//        change's unique request_key, so a replay answers the same change. At most one per
//        `mac_change_cooldown_hours` (default 24) and `mac_change_monthly_limit` (default 2) in 30
//        days: otherwise 409 saying when it is allowed (Retry-After). Audited.
//   POST /api/client/line/isp-reset (Idempotency-Key) → 202 {queued, by: panel|owner}: the line's ISP lock reset on the panel
//        (an isp_clear job, key isp-reset:<client>:<key>: once per request), for a subscriber on a
//        new network. Audited.
// A MAC another client of ours holds (clients.line_mac) is refused with a 409 in the customer's
// words before anything is written or asked of the panel, and the owner is alerted (issue 46:
// the panel used to be asked, and its refusal came back as a failed job).
// The owner's tool (POST /api/admin/clients/:id/line-mac, modules/admin-business) goes through
// requestMacChange too, without the cooldown and the limit: a line on the panel moves the same way
// (its change is not counted against the client's), a box without a line yet just gets its MAC.
import { randomUUID } from "node:crypto";
import { and, asc, eq, gte, inArray, isNull, ne, notLike, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { requireClient } from "@/server/auth/guards";
import type { Db } from "@/server/db/client";
import { auditLog, clients, lineMacChanges } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { matchContact, storedNumber } from "@/server/lib/identity";
import { alertOwner } from "@/server/lib/owner-alerts";
import { queuePanelWork } from "@/server/lib/provisioning";
import { parseBody } from "@/server/modules/client/service";
import { formatDateTime, saDay } from "@/shared/dates";
import { macChangeSchema } from "@/shared/device-line-schemas";
import {
  LINE_TYPE_LABELS,
  type LineType,
  MAC_CHANGE_COOLDOWN_SETTING,
  MAC_CHANGE_DEFAULTS,
  MAC_CHANGE_LIMIT_SETTING,
  needsMac,
} from "@/shared/device-lines";

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;
/** The owner's changes are keyed apart from the client's, and never count against their limit. */
const OWNER_KEY_PREFIX = "owner:";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type ClientRow = typeof clients.$inferSelect;
type MacChangeRow = typeof lineMacChanges.$inferSelect;

/** A whole-number setting, else its default. */
const whole = (value: string | undefined, fallback: number) => (/^\d{1,4}$/.test((value ?? "").trim()) ? Number(value) : fallback);

/** 409 with when it is allowed, in SAST, and Retry-After. */
function notYet(message: string, allowedAt: Date): AppError {
  const seconds = Math.max(1, Math.ceil((allowedAt.getTime() - Date.now()) / 1000));
  return new AppError(409, "conflict", `${message} You can change it again after ${formatDateTime(allowedAt)} (SAST).`, undefined, {
    "retry-after": String(seconds),
  });
}

export const MAC_HELD_MESSAGE =
  "That MAC address is already registered to another account. Check the MAC on your box's About/Status screen, or contact us.";

/** A MAC's twelve hex digits, whatever separators and case it was typed or stored with. */
const macDigits = (mac: string) => mac.replace(/[^0-9A-Fa-f]/g, "").toUpperCase();

/**
 * Another client of ours whose box line holds `mac`, or null. Not `clientId` itself, nor a row
 * that is (or may be) the same person: one merged into another, or one flagged as a possible
 * duplicate of the other (the owner has yet to merge them).
 */
export async function macHolder(
  db: Pick<Db, "select">,
  mac: string,
  clientId: string | null,
): Promise<{ id: string; username: string; full_name: string } | null> {
  const digits = macDigits(mac);
  if (digits.length !== 12) return null;
  const [holder] = await db
    .select({ id: clients.id, username: clients.username, full_name: clients.full_name })
    .from(clients)
    .where(
      and(
        inArray(clients.line_type, ["mag", "enigma2"]),
        sql`upper(regexp_replace(${clients.line_mac}, '[^0-9A-Fa-f]', '', 'g')) = ${digits}`,
        isNull(clients.merged_into),
        clientId ? ne(clients.id, clientId) : undefined,
        clientId ? sql`${clients.possible_duplicate_of} IS DISTINCT FROM ${clientId}::uuid` : undefined,
        clientId
          ? sql`${clients.id} IS DISTINCT FROM (SELECT c.possible_duplicate_of FROM clients c WHERE c.id = ${clientId}::uuid)`
          : undefined,
      ),
    )
    .limit(1);
  return holder ?? null;
}

/**
 * The 409 for a MAC another client holds, after the owner is told (once a day per customer and
 * MAC): who asked, for which MAC, and who holds it, so they can tell a typo from a box that
 * changed hands. `asker` names the customer as the alert should ("Thabo (thabo01)", "a buyer").
 */
export async function refuseHeldMac(
  app: FastifyInstance,
  {
    mac,
    asker,
    askerKey,
    holder,
    where,
  }: { mac: string; asker: string; askerKey: string; holder: { id: string; username: string; full_name: string }; where: string },
): Promise<AppError> {
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
  const queued = await alertOwner(app, app.db, {
    cause: "mac-held",
    dedupeKey: `mac-held:${askerKey}:${macDigits(mac)}:${saDay(new Date())}`,
    subject: `A box MAC another client holds: ${mac}`,
    body: [
      `${asker} gave the MAC address ${mac} ${where}, but it is registered to your client ${holder.full_name || holder.username} (${holder.username}). Nothing was sent to the panel; they were asked to check the MAC on their box or contact you.`,
      "",
      `If the box changed hands, free the MAC on the old client first: ${publicUrl}/admin/clients/${holder.id}`,
    ].join("\n"),
  }).catch((error) => {
    app.log.warn({ err: error }, "mac-held alert not queued");
    return 0;
  });
  if (queued) app.outbox.nudge();
  return new AppError(409, "mac_held", MAC_HELD_MESSAGE, { mac: MAC_HELD_MESSAGE });
}

/**
 * A new box line at payment (issue 46): refused with the 409 above, the owner alerted, when another
 * client holds its MAC — unless that client is the payer: the one signed in, or the one whose
 * number or e-mail they typed (their own box, paying again without signing in; settling decides
 * whose it is, as ever).
 */
export async function checkNewLineMac(
  app: FastifyInstance,
  order: { lineType?: string; mac?: string; name?: string; whatsapp?: string; email?: string },
  signedIn: string | null,
): Promise<void> {
  if (!order.mac || !needsMac(order.lineType ?? "m3u")) return;
  const holder = await macHolder(app.db, order.mac, signedIn);
  if (!holder) return;
  if (!signedIn && order.whatsapp) {
    const match = await matchContact(app.db, { whatsapp: storedNumber(order.whatsapp), email: order.email ?? "" });
    if (match?.client.id === holder.id) return;
  }
  const [client] = signedIn ? await app.db.select().from(clients).where(eq(clients.id, signedIn)) : [];
  const asker = client
    ? `Your client ${client.full_name || client.username} (${client.username})`
    : `A buyer${order.name ? `, ${order.name}` : ""}${order.whatsapp ? ` (${order.whatsapp})` : ""},`;
  throw await refuseHeldMac(app, {
    mac: order.mac,
    asker,
    askerKey: signedIn ?? `buyer:${order.whatsapp ? storedNumber(order.whatsapp) : "unknown"}`,
    holder,
    where: "for a new box line when paying",
  });
}

export interface MacChangeRequest {
  clientId: string;
  mac: string;
  /** the caller's Idempotency-Key (a replay answers the same change), or a fresh one */
  key: string;
  /** the client's own change: the cooldown and the monthly limit apply. The owner's: none. */
  by: "client" | "owner";
  /** the owner's tool only: the box's type, for a client whose line is not on the panel yet */
  lineType?: Extract<LineType, "mag" | "enigma2">;
  /** the audit entry, written in the change's transaction */
  audit: (tx: Tx, client: ClientRow, after: Record<string, unknown>) => Promise<void>;
}

export interface MacChangeResult {
  /** the change the panel job carries out; null when the MAC was only recorded (no line on the panel yet) */
  change: MacChangeRow | null;
  client: { line_type: string; line_mac: string };
}

/** The change as the API answers it. */
export const changeView = (change: MacChangeRow) => ({
  id: change.id,
  old_mac: change.old_mac,
  new_mac: change.new_mac,
  status: change.status,
  created_at: change.created_at,
});

/**
 * A box's line moves to a new MAC (issue 32 item 2): a line_mac_changes row and its change_mac job,
 * once per key, audited, under the client row's lock. The client's own request is held to the
 * cooldown and the monthly limit (409 saying when). The owner may also record the MAC of a box
 * whose line is not on the panel yet: no job, the line is made with it.
 */
export async function requestMacChange(app: FastifyInstance, input: MacChangeRequest): Promise<MacChangeResult> {
  const key = input.by === "owner" ? `${OWNER_KEY_PREFIX}${input.clientId}:${input.key}` : `${input.clientId}:${input.key}`;
  const { settings } = await loadBusiness(app);
  const cooldownHours = whole(settings[MAC_CHANGE_COOLDOWN_SETTING], MAC_CHANGE_DEFAULTS.cooldownHours);
  const monthlyLimit = whole(settings[MAC_CHANGE_LIMIT_SETTING], MAC_CHANGE_DEFAULTS.monthlyLimit);
  const mac = input.mac;
  const now = new Date();
  if (input.by === "client") {
    // Before the transaction: the refusal leaves the owner's alert behind.
    const holder = await macHolder(app.db, mac, input.clientId);
    const [replayed] = holder ? await app.db.select().from(lineMacChanges).where(eq(lineMacChanges.request_key, key)) : [];
    if (holder && !replayed) {
      const [asker] = await app.db.select().from(clients).where(eq(clients.id, input.clientId));
      throw await refuseHeldMac(app, {
        mac,
        asker: asker ? `Your client ${asker.full_name || asker.username} (${asker.username})` : "A client",
        askerKey: input.clientId,
        holder,
        where: "as their box's new MAC in the portal",
      });
    }
  }
  try {
    const { result, queued } = await app.db.transaction(async (tx) => {
      // One change at a time per client: the cooldown and the limit are counted under this lock.
      const [client] = await tx.select().from(clients).where(eq(clients.id, input.clientId)).for("no key update");
      const [replayed] = await tx.select().from(lineMacChanges).where(eq(lineMacChanges.request_key, key));
      if (replayed) return { result: { change: replayed, client }, queued: 0 };
      if (!client) throw notFound("No client with that id.");
      const owner = input.by === "owner";
      if (!client.panel_line_id && owner) {
        // No line on the panel yet (never made, or refused for its MAC): the line is made with this one.
        const lineType = input.lineType ?? (needsMac(client.line_type) ? (client.line_type as "mag" | "enigma2") : null);
        if (!lineType) throw badRequest("Choose a MAG box or an Enigma2 receiver", { lineType: "Choose a MAG box or an Enigma2 receiver" });
        if (client.line_mac === mac && client.line_type === lineType)
          throw conflict("That is already this client's MAC address.", { mac: "That is already this client's MAC address." });
        const [updated] = await tx
          .update(clients)
          .set({ line_type: lineType, line_mac: mac, updated_at: now })
          .where(eq(clients.id, client.id))
          .returning();
        await input.audit(tx, client, { line_type: lineType, line_mac: mac });
        return { result: { change: null, client: updated }, queued: 0 };
      }
      if (!needsMac(client.line_type))
        throw conflict(
          owner
            ? "This client's line is an app's login, not a box's: there is no MAC address to change."
            : "Your line is an app's login, not a box's: there is no MAC address to change.",
        );
      if (owner && input.lineType && input.lineType !== client.line_type)
        throw conflict(
          `This client's line on the panel is a ${LINE_TYPE_LABELS[client.line_type as LineType]}'s: its type cannot change here.`,
          { lineType: "The line on the panel keeps its type." },
        );
      if (!client.panel_line_id) throw conflict("Your box's line is still being made. Try again once it is ready.");
      if (client.line_mac === mac) {
        const same = owner ? "That is already this client's MAC address." : "That is already your box's MAC address.";
        throw conflict(same, { mac: same });
      }
      if (!owner) {
        const recent = await tx
          .select()
          .from(lineMacChanges)
          .where(
            and(
              eq(lineMacChanges.client_id, client.id),
              gte(lineMacChanges.created_at, new Date(now.getTime() - WINDOW_DAYS * DAY_MS)),
              notLike(lineMacChanges.request_key, `${OWNER_KEY_PREFIX}%`),
            ),
          )
          .orderBy(asc(lineMacChanges.created_at));
        const last = recent.at(-1);
        if (last && last.created_at.getTime() + cooldownHours * 3_600_000 > now.getTime()) {
          throw notYet(
            "You changed your box's MAC address a short while ago.",
            new Date(last.created_at.getTime() + cooldownHours * 3_600_000),
          );
        }
        if (recent.length >= monthlyLimit) {
          const oldest = recent[recent.length - monthlyLimit];
          throw notYet(
            `You have changed your box's MAC address ${recent.length} times in 30 days.`,
            new Date(oldest.created_at.getTime() + WINDOW_DAYS * DAY_MS),
          );
        }
      }
      const [change] = await tx
        .insert(lineMacChanges)
        .values({ client_id: client.id, request_key: key, old_mac: client.line_mac, new_mac: mac, created_at: now })
        .returning();
      const queued = await queuePanelWork(tx, client.id, `mac-change:${change.id}`, [{ action: "change_mac" }]);
      await input.audit(tx, client, { line_mac: mac, change_id: change.id });
      return { result: { change, client }, queued };
    });
    if (queued) app.provisioning.nudge();
    return result;
  } catch (error) {
    // Two copies of one request at once: the second finds the first's change.
    if (uniqueViolation(error) === "line_mac_changes_request_key_unique") {
      const [change] = await app.db.select().from(lineMacChanges).where(eq(lineMacChanges.request_key, key));
      const [client] = await app.db.select().from(clients).where(eq(clients.id, input.clientId));
      return { change, client };
    }
    throw error;
  }
}

/** The request's Idempotency-Key, or a fresh one (then each request is its own). */
export function idempotencyKeyOf(header: string | string[] | undefined): string {
  return typeof header === "string" && header.trim() ? header.trim().slice(0, 200) : randomUUID();
}

const routes: FastifyPluginAsync = async (app) => {
  // The body is read after the session (as the portal's other writes): a signed-out call is a 401 whatever it sends.
  app.post("/client/line/mac", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const { mac } = parseBody(macChangeSchema, request.body);
    const { change } = await requestMacChange(app, {
      clientId: request.client?.id as string,
      mac,
      key: idempotencyKeyOf(request.headers["idempotency-key"]),
      by: "client",
      audit: async (tx, client, after) => {
        await tx.insert(auditLog).values({
          admin_id: null,
          admin_email: "",
          action: "mac-change",
          resource: "clients",
          resource_id: client.id,
          before: { line_mac: client.line_mac },
          after: { ...after, actor: `client ${client.username}` },
        });
      },
    });
    reply.code(202);
    return { data: change ? changeView(change) : null };
  });

  app.post("/client/line/isp-reset", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const clientId = request.client?.id as string;
    const key = idempotencyKeyOf(request.headers["idempotency-key"]);
    const causeKey = `isp-reset:${clientId}:${key}`;
    const queued = await app.db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("no key update");
      if (!client?.panel_line_id) throw conflict("Your line is still being made. Try again once it is ready.");
      const count = await queuePanelWork(tx, clientId, causeKey, [{ action: "isp_clear" }]);
      if (count) {
        await tx.insert(auditLog).values({
          admin_id: null,
          admin_email: "",
          action: "isp-reset",
          resource: "clients",
          resource_id: clientId,
          before: null,
          after: { cause_key: causeKey, actor: `client ${client.username}` },
        });
      }
      return count;
    });
    if (queued) app.provisioning.nudge();
    reply.code(202);
    // who resets it: the panel within moments, or the owner by hand (manual mode), so the portal says which
    return { data: { queued: queued > 0, by: app.provisioning.panel.mode === "manual" ? "owner" : "panel" } };
  });
};

export default routes;
