// A partner's lines (issue 45 item 3), registered inside the partner session's scope:
//   GET  /api/partner/packages → {data: [{id, name, duration, credits}]}: what they may sell, at its panel cost
//   GET  /api/partner/lines → {data}: their own lines only
//   GET  /api/partner/lines/:id → {data} | 404 (another partner's line is 404 too)
//   POST /api/partner/lines {name, whatsapp, email, package_id} (Idempotency-Key) → 201 {data}
// Renewing and switching a line off or on again are in ./line-actions.ts.
// A line costs the partner the panel package's credits. The owner's reseller is who the panel
// charges (member_id gives the line to the partner), so the cost is first moved back from the
// partner to the owner with adjust_credits (a ledger transfer keyed on the line's row), then the
// line is made; when the panel refuses the create, the cost goes back to the partner (its own
// keyed transfer). The row's request_key (partner + Idempotency-Key) makes a replay the same line;
// its login is derived from the row, so a create whose answer was lost is looked up, never resent blindly.
// Once made, the customer's login is queued with it (line-messages.ts), from the partner.
import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { MAYBE_DONE_STATUSES, PanelError, type PanelLine } from "@/server/adapters/panel/panel";
import { SANDBOX_PACKAGES } from "@/server/adapters/panel/sandbox";
import { packages, panelPackageMap, resellerLines } from "@/server/db/schema";
import { AppError, notFound } from "@/server/lib/errors";
import { enqueueAll } from "@/server/lib/outbox";
import { lineCredentials } from "@/server/lib/provisioning";
import { parseBody } from "@/server/modules/client/service";
import { idempotencyKeyOf } from "@/server/modules/panel/mac-change";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import { type Actor, auditAs, panelFailure, resellerPanel } from "@/server/modules/resellers/service";
import { type PartnerLine, partnerLineSchema } from "@/shared/reseller-schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { chargeLine, onceSettled, partnerId, partnerOnPanel, refundLine } from "./line-credits";
import { partnerLineMessages } from "./line-messages";

export type LineRow = typeof resellerLines.$inferSelect;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const toLine = (row: LineRow, streamUrl: string): PartnerLine => ({
  id: row.id,
  name: row.name,
  whatsapp: row.whatsapp,
  email: row.email,
  package_name: row.package_name,
  cost: row.cost,
  status: row.status,
  username: row.line_username,
  password: row.line_password,
  server_url: row.status === "done" ? streamUrl : "",
  expires_at: row.expires_at?.toISOString() ?? null,
  switched_off: row.switched_off_at !== null,
  error: row.error,
  created_at: row.created_at.toISOString(),
});

export const actorOf = (request: FastifyRequest): Actor => ({
  kind: "partner",
  id: partnerId(request),
  username: request.partner?.username ?? "",
});

/**
 * Our packages mapped to a panel package, with what the panel charges for one. The sandbox panel
 * maps a package nobody mapped by its length, as the provisioning worker does.
 */
export async function sellable(app: FastifyInstance) {
  const panel = app.provisioning.panel;
  const [ours, mapped, panelPackages] = await Promise.all([
    app.db
      .select({ id: packages.id, name: packages.name, duration: packages.duration, months: packages.duration_months })
      .from(packages)
      .where(eq(packages.is_active, true)),
    app.db.select().from(panelPackageMap),
    panel.packages(),
  ]);
  return ours.flatMap((p) => {
    const panelPackageId =
      mapped.find((m) => m.package_id === p.id)?.panel_package_id ??
      (panel.mode === "sandbox" ? SANDBOX_PACKAGES.find((s) => !s.is_trial && s.official_duration === p.months)?.id : undefined);
    const onPanel = panelPackageId ? panelPackages.find((pp) => pp.id === panelPackageId && !pp.is_trial) : undefined;
    return onPanel
      ? [{ id: p.id, name: p.name, duration: p.duration, panel_package_id: onPanel.id, credits: onPanel.official_credits }]
      : [];
  });
}

/** The partner's own line; another's (or none) is 404. */
export async function partnersLine(app: FastifyInstance, request: FastifyRequest<{ Params: { id: string } }>): Promise<LineRow> {
  if (!UUID_RE.test(request.params.id)) throw notFound("No such line.");
  const [row] = await app.db
    .select()
    .from(resellerLines)
    .where(and(eq(resellerLines.id, request.params.id), eq(resellerLines.reseller_id, partnerId(request))));
  if (!row) throw notFound("No such line.");
  return row;
}

const routes: FastifyPluginAsync = async (app) => {
  app.get("/partner/packages", async () => {
    resellerPanel(app); // manual mode: a 409 in words, not an empty list
    const data = (await sellable(app)).map(({ panel_package_id: _, ...p }) => p);
    return { data };
  });

  app.get("/partner/lines", async (request) => {
    const streamUrl = await currentStreamUrl(app);
    const rows = await app.db
      .select()
      .from(resellerLines)
      .where(eq(resellerLines.reseller_id, partnerId(request)))
      .orderBy(desc(resellerLines.created_at))
      .limit(1000);
    return { data: rows.map((row) => toLine(row, streamUrl)) };
  });

  app.get<{ Params: { id: string } }>("/partner/lines/:id", async (request) => ({
    data: toLine(await partnersLine(app, request), await currentStreamUrl(app)),
  }));

  app.post("/partner/lines", async (request, reply) => {
    const input = parseBody(partnerLineSchema, request.body);
    const panel = resellerPanel(app);
    const partner = await partnerOnPanel(app, request);
    const pkg = (await sellable(app)).find((p) => p.id === input.package_id);
    if (!pkg) throw new AppError(400, "validation", "Choose a package you can sell", { package_id: "Choose a package you can sell" });
    const requestKey = `${partner.id}:${idempotencyKeyOf(request.headers["idempotency-key"])}`;
    const streamUrl = await currentStreamUrl(app);

    const [claimed] = await app.db
      .insert(resellerLines)
      .values({
        reseller_id: partner.id,
        request_key: requestKey,
        name: input.name,
        whatsapp: toStoredWhatsApp(input.whatsapp) ?? "",
        email: input.email.toLowerCase(),
        package_id: pkg.id,
        package_name: pkg.name,
        panel_package_id: pkg.panel_package_id,
        cost: pkg.credits,
      })
      .onConflictDoNothing({ target: resellerLines.request_key })
      .returning();
    if (!claimed) {
      // The same request again: its line, once it is settled.
      const earlier = await onceSettled(
        async () => (await app.db.select().from(resellerLines).where(eq(resellerLines.request_key, requestKey)))[0],
      );
      if (!earlier) throw new AppError(409, "conflict", "That request was refused. Send it again as a new request.");
      if (earlier.status === "failed") throw new AppError(409, "line_failed", earlier.error || "The line could not be made.");
      reply.code(200);
      return { data: toLine(earlier, streamUrl) };
    }

    const actor = actorOf(request);
    const forget = () => app.db.delete(resellerLines).where(eq(resellerLines.id, claimed.id));
    // The cost back from the partner to the owner, who is the one the panel charges, before anything is made.
    await chargeLine(
      app,
      actor,
      partner,
      { credits: pkg.credits, note: `Line for ${input.name} (${pkg.name})`, cause: claimed.id },
      forget,
    );

    const login = await lineCredentials(app.db, `partner-line:${claimed.id}`);
    let line: PanelLine | null = null;
    let failure: unknown = null;
    try {
      line = await panel.createLine({
        package: pkg.panel_package_id,
        trial: false,
        contact: [input.name, input.whatsapp, input.email].filter(Boolean).join(", "),
        notes: `StreamDesk partner ${partner.username} · ${login.username}`,
        username: login.username,
        password: login.password,
        member_id: partner.panel_user_id,
      });
    } catch (error) {
      failure = error;
      // An answer lost on the way: the line may be there under its own login.
      if (error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status)) {
        line = await panel.findLine(login.username).catch(() => null);
      }
    }

    if (!line) {
      // Not made: the cost goes back to the partner, as its own transfer (once, keyed on the line).
      const words = failure instanceof Error ? failure.message : "The panel could not make the line.";
      await refundLine(app, actor, partner, {
        credits: pkg.credits,
        note: `Refund: line for ${input.name} not made`,
        cause: claimed.id,
      }).catch((refundError) => request.log.error({ err: refundError, line: claimed.id }, "partner line refund failed"));
      await app.db.transaction(async (tx) => {
        await tx
          .update(resellerLines)
          .set({ status: "failed", error: words, updated_at: new Date() })
          .where(eq(resellerLines.id, claimed.id));
        await auditAs(tx, actor, { action: "line-failed", resource: "reseller_line", resourceId: claimed.id, after: { error: words } });
      });
      throw panelFailure(failure);
    }

    const made = line;
    const [saved] = await app.db.transaction(async (tx) => {
      const written = await tx
        .update(resellerLines)
        .set({
          status: "done",
          panel_line_id: made.id,
          line_username: made.username,
          line_password: made.password,
          expires_at: made.expires_at,
          updated_at: new Date(),
        })
        .where(eq(resellerLines.id, claimed.id))
        .returning();
      await auditAs(tx, actor, {
        action: "line-create",
        resource: "reseller_line",
        resourceId: claimed.id,
        after: { name: input.name, package: pkg.name, cost: pkg.credits, panel_line_id: made.id },
      });
      // Their customer's login, from the partner, with the line (once per line and channel).
      await enqueueAll(
        tx,
        partnerLineMessages({
          lineId: claimed.id,
          customer: { name: claimed.name, email: claimed.email, whatsapp: claimed.whatsapp },
          partner: { name: partner.name, email: partner.email, whatsapp: partner.whatsapp },
          packageName: pkg.name,
          line: made,
          streamUrl,
          test: app.provisioning.panel.mode === "sandbox",
        }),
      );
      return written;
    });
    app.outbox.nudge();
    reply.code(201);
    return { data: toLine(saved, streamUrl) };
  });
};

export default routes;
