// A partner renews, switches off and switches on again their customers' lines (issue 45 item 3),
// inside the partner session's scope, only ever on their own lines (another's is 404):
//   POST /api/partner/lines/:id/renew (Idempotency-Key) → 200 {data}: the line, extended
//   POST /api/partner/lines/:id/switch-off → 200 {data}: disabled on the panel
//   POST /api/partner/lines/:id/switch-on → 200 {data}: enabled again
// A renewal costs what a new line of its package costs, the same way (lines.ts): the owner's
// reseller is who the panel charges for edit_line, so the cost is first moved back from the
// partner to the owner (a ledger transfer keyed on the renewal's row), then the line is extended;
// when the panel refuses, the cost goes back (its own keyed transfer). The renewal's row
// (request_key: partner + Idempotency-Key) makes a replay the same renewal: credits move once and
// the line is extended once. Ledger causes are line:<line>:renew:<renewal> and
// line-refund:<line>:renew:<renewal>, so the owner's network figures count them as spent on lines.
// Switching off or on costs nothing; the panel call is harmless to repeat, the row and the audit
// change once.
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { MAYBE_DONE_STATUSES, PanelError, type PanelLine } from "@/server/adapters/panel/panel";
import { resellerLineRenewals, resellerLines } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { idempotencyKeyOf } from "@/server/modules/panel/mac-change";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import { auditAs, panelFailure, resellerPanel } from "@/server/modules/resellers/service";
import { chargeLine, onceSettled, partnerOnPanel, refundLine } from "./line-credits";
import { actorOf, type LineRow, partnersLine, sellable, toLine } from "./lines";

const LINE_NOT_MADE = "This line was never made, so it cannot be renewed or switched off or on.";
const LINE_PACKAGE_GONE = "This line's package cannot be sold any more, so it cannot be renewed here. Please ask the business.";

/** The partner's own line, made on the panel; another's (or none) is 404, one never made a 409. */
async function ownLine(app: FastifyInstance, request: FastifyRequest<{ Params: { id: string } }>): Promise<LineRow> {
  const row = await partnersLine(app, request);
  if (row.status !== "done" || !row.panel_line_id) throw new AppError(409, "line_not_made", LINE_NOT_MADE);
  return row;
}

const lineNow = async (app: FastifyInstance, id: string) => (await app.db.select().from(resellerLines).where(eq(resellerLines.id, id)))[0];

const routes: FastifyPluginAsync = async (app) => {
  app.post<{ Params: { id: string } }>("/partner/lines/:id/renew", async (request) => {
    const line = await ownLine(app, request);
    const panel = resellerPanel(app);
    const partner = await partnerOnPanel(app, request);
    const pkg = (await sellable(app)).find((p) => p.panel_package_id === line.panel_package_id);
    if (!pkg) throw new AppError(409, "package_gone", LINE_PACKAGE_GONE);
    const requestKey = `${partner.id}:renew:${idempotencyKeyOf(request.headers["idempotency-key"])}`;
    const streamUrl = await currentStreamUrl(app);

    const [claimed] = await app.db
      .insert(resellerLineRenewals)
      .values({ line_id: line.id, reseller_id: partner.id, request_key: requestKey, cost: pkg.credits, expires_before: line.expires_at })
      .onConflictDoNothing({ target: resellerLineRenewals.request_key })
      .returning();
    if (!claimed) {
      // The same request again: its renewal's outcome, once it is settled.
      const earlier = await onceSettled(
        async () => (await app.db.select().from(resellerLineRenewals).where(eq(resellerLineRenewals.request_key, requestKey)))[0],
      );
      if (!earlier || earlier.line_id !== line.id)
        throw new AppError(409, "conflict", "That request was refused. Send it again as a new request.");
      if (earlier.status === "pending")
        throw new AppError(409, "renew_pending", "That renewal is still going through. Look again in a moment.");
      if (earlier.status !== "done") throw new AppError(409, "renew_failed", earlier.error || "The line could not be renewed.");
      return { data: toLine(await lineNow(app, line.id), streamUrl) };
    }

    const actor = actorOf(request);
    const forget = () => app.db.delete(resellerLineRenewals).where(eq(resellerLineRenewals.id, claimed.id));
    // The cost is moved before the line is extended.
    const cause = `${line.id}:renew:${claimed.id}`;
    await chargeLine(app, actor, partner, { credits: pkg.credits, note: `Renewal of ${line.name}'s line (${pkg.name})`, cause }, forget);

    const panelLineId = line.panel_line_id as string;
    let renewed: PanelLine | null = null;
    let failure: unknown = null;
    try {
      renewed = await panel.editLine({ id: panelLineId, package: pkg.panel_package_id });
    } catch (error) {
      failure = error;
      // An answer lost on the way: the line's expiry on the panel says whether it was extended.
      if (error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status)) {
        const found = await panel.findLine(line.line_username).catch(() => undefined);
        if (found === undefined) {
          // Cannot tell: the credits stay moved (never given back for a renewal that happened), the business checks.
          const words = "The panel did not answer whether the line was renewed. The business will check it on the panel.";
          await app.db
            .update(resellerLineRenewals)
            .set({ status: "unknown", error: words, updated_at: new Date() })
            .where(eq(resellerLineRenewals.id, claimed.id));
          throw panelFailure(error);
        }
        const before = line.expires_at?.getTime() ?? 0;
        if (found?.expires_at && found.expires_at.getTime() > before) renewed = found;
      }
    }

    if (!renewed) {
      // Not renewed: the cost goes back to the partner, as its own transfer (once, keyed on the renewal).
      const words = failure instanceof Error ? failure.message : "The panel could not renew the line.";
      await refundLine(app, actor, partner, { credits: pkg.credits, note: `Refund: renewal of ${line.name}'s line not made`, cause }).catch(
        (refundError) => request.log.error({ err: refundError, renewal: claimed.id }, "partner renewal refund failed"),
      );
      await app.db.transaction(async (tx) => {
        await tx
          .update(resellerLineRenewals)
          .set({ status: "failed", error: words, updated_at: new Date() })
          .where(eq(resellerLineRenewals.id, claimed.id));
        await auditAs(tx, actor, { action: "line-renew-failed", resource: "reseller_line", resourceId: line.id, after: { error: words } });
      });
      throw panelFailure(failure);
    }

    const made = renewed;
    const saved = await app.db.transaction(async (tx) => {
      const [written] = await tx
        .update(resellerLines)
        .set({ expires_at: made.expires_at ?? line.expires_at, package_name: pkg.name, updated_at: new Date() })
        .where(eq(resellerLines.id, line.id))
        .returning();
      await tx
        .update(resellerLineRenewals)
        .set({ status: "done", expires_after: made.expires_at, updated_at: new Date() })
        .where(eq(resellerLineRenewals.id, claimed.id));
      await auditAs(tx, actor, {
        action: "line-renew",
        resource: "reseller_line",
        resourceId: line.id,
        after: { package: pkg.name, cost: pkg.credits, expires_at: made.expires_at?.toISOString() ?? null },
      });
      return written;
    });
    return { data: toLine(saved, streamUrl) };
  });

  /** Switches the line off or on again on the panel; the row and the audit change once. */
  const switchLine = (to: "off" | "on") => async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const line = await ownLine(app, request);
    const panel = resellerPanel(app);
    if ((line.switched_off_at === null) === (to === "off")) {
      try {
        if (to === "off") await panel.disableLine(line.panel_line_id as string);
        else await panel.enableLine(line.panel_line_id as string);
      } catch (error) {
        throw panelFailure(error);
      }
      await app.db.transaction(async (tx) => {
        const [changed] = await tx
          .update(resellerLines)
          .set({ switched_off_at: to === "off" ? new Date() : null, updated_at: new Date() })
          .where(
            and(
              eq(resellerLines.id, line.id),
              to === "off" ? isNull(resellerLines.switched_off_at) : isNotNull(resellerLines.switched_off_at),
            ),
          )
          .returning({ id: resellerLines.id });
        if (changed) {
          await auditAs(tx, actorOf(request), {
            action: to === "off" ? "line-switch-off" : "line-switch-on",
            resource: "reseller_line",
            resourceId: line.id,
          });
        }
      });
    }
    return { data: toLine(await lineNow(app, line.id), await currentStreamUrl(app)) };
  };
  app.post<{ Params: { id: string } }>("/partner/lines/:id/switch-off", switchLine("off"));
  app.post<{ Params: { id: string } }>("/partner/lines/:id/switch-on", switchLine("on"));
};

export default routes;
