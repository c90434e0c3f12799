// The portal's self-service for a box's line (issue 32 item 2), client session only:
//   POST /api/client/line/mac {mac} (Idempotency-Key) → 202 {data: the change}: the box's line
//        moves to a new MAC on the panel (a change_mac provisioning job: edit_mag / edit_enigma
//        with the MAC, which frees the old one). Once per request: the client and the key make the
//        change's unique request_key, so a replay answers the same change. At most one per
//        `mac_change_cooldown_hours` (default 24) and `mac_change_monthly_limit` (default 2) in 30
//        days: otherwise 409 saying when it is allowed (Retry-After). Audited.
//   POST /api/client/line/isp-reset (Idempotency-Key) → 202: the line's ISP lock reset on the panel
//        (an isp_clear job, key isp-reset:<client>:<key>: once per request), for a subscriber on a
//        new network. Audited.
import { randomUUID } from "node:crypto";
import { and, asc, eq, gte } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { requireClient } from "@/server/auth/guards";
import { auditLog, clients, lineMacChanges } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, conflict, uniqueViolation } from "@/server/lib/errors";
import { queuePanelWork } from "@/server/lib/provisioning";
import { parseBody } from "@/server/modules/client/service";
import { formatDateTime } from "@/shared/dates";
import {
  MAC_CHANGE_COOLDOWN_SETTING,
  MAC_CHANGE_DEFAULTS,
  MAC_CHANGE_LIMIT_SETTING,
  macChangeSchema,
  needsMac,
} from "@/shared/device-lines";

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;

/** A whole-number setting, else its default. */
const whole = (value: string | undefined, fallback: number) => (/^\d{1,4}$/.test((value ?? "").trim()) ? Number(value) : fallback);

/** 409 with when it is allowed, in SAST, and Retry-After. */
function notYet(message: string, allowedAt: Date): AppError {
  const seconds = Math.max(1, Math.ceil((allowedAt.getTime() - Date.now()) / 1000));
  return new AppError(409, "conflict", `${message} You can change it again after ${formatDateTime(allowedAt)} (SAST).`, undefined, {
    "retry-after": String(seconds),
  });
}

const routes: FastifyPluginAsync = async (app) => {
  // The body is read after the session (as the portal's other writes): a signed-out call is a 401 whatever it sends.
  app.post("/client/line/mac", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const { mac } = parseBody(macChangeSchema, request.body);
    const clientId = request.client?.id as string;
    const header = request.headers["idempotency-key"];
    const key = `${clientId}:${typeof header === "string" && header.trim() ? header.trim().slice(0, 200) : randomUUID()}`;
    const { settings } = await loadBusiness(app);
    const cooldownHours = whole(settings[MAC_CHANGE_COOLDOWN_SETTING], MAC_CHANGE_DEFAULTS.cooldownHours);
    const monthlyLimit = whole(settings[MAC_CHANGE_LIMIT_SETTING], MAC_CHANGE_DEFAULTS.monthlyLimit);
    const now = new Date();
    try {
      const { change, queued } = await app.db.transaction(async (tx) => {
        // One change at a time per client: the cooldown and the limit are counted under this lock.
        const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("update");
        const [replayed] = await tx.select().from(lineMacChanges).where(eq(lineMacChanges.request_key, key));
        if (replayed) return { change: replayed, queued: 0 };
        if (!client || !needsMac(client.line_type))
          throw conflict("Your line is an app's login, not a box's: there is no MAC address to change.");
        if (!client.panel_line_id) throw conflict("Your box's line is still being made. Try again once it is ready.");
        if (client.line_mac === mac)
          throw conflict("That is already your box's MAC address.", { mac: "That is already your box's MAC address." });
        const recent = await tx
          .select()
          .from(lineMacChanges)
          .where(
            and(eq(lineMacChanges.client_id, clientId), gte(lineMacChanges.created_at, new Date(now.getTime() - WINDOW_DAYS * DAY_MS))),
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
        const [change] = await tx
          .insert(lineMacChanges)
          .values({ client_id: clientId, request_key: key, old_mac: client.line_mac, new_mac: mac, created_at: now })
          .returning();
        const queued = await queuePanelWork(tx, clientId, `mac-change:${change.id}`, [{ action: "change_mac" }]);
        await tx.insert(auditLog).values({
          admin_id: null,
          admin_email: "",
          action: "mac-change",
          resource: "clients",
          resource_id: clientId,
          before: { line_mac: client.line_mac },
          after: { line_mac: mac, change_id: change.id, actor: `client ${client.username}` },
        });
        return { change, queued };
      });
      if (queued) app.provisioning.nudge();
      reply.code(202);
      return {
        data: { id: change.id, old_mac: change.old_mac, new_mac: change.new_mac, status: change.status, created_at: change.created_at },
      };
    } catch (error) {
      // Two copies of one request at once: the second finds the first's change.
      if (uniqueViolation(error) === "line_mac_changes_request_key_unique") {
        const [change] = await app.db.select().from(lineMacChanges).where(eq(lineMacChanges.request_key, key));
        reply.code(202);
        return {
          data: { id: change.id, old_mac: change.old_mac, new_mac: change.new_mac, status: change.status, created_at: change.created_at },
        };
      }
      throw error;
    }
  });

  app.post("/client/line/isp-reset", { preHandler: requireClient }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const clientId = request.client?.id as string;
    const header = request.headers["idempotency-key"];
    const key = typeof header === "string" && header.trim() ? header.trim().slice(0, 200) : randomUUID();
    const causeKey = `isp-reset:${clientId}:${key}`;
    const queued = await app.db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("update");
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
    return { data: { queued: queued > 0 } };
  });
};

export default routes;
