// The dashboard's view of the IPTV panel (admins only):
//   GET  /api/admin/panel                  → {mode, connected, credits, low_credits, packages, mapping, trial_package_id, error}
//   PUT  /api/admin/panel/mapping          {packages: {<our package id>: <panel package id>}, trial} → the same view
//   GET  /api/admin/provisioning?status=   → {data: jobs with the client's name, newest first}
//   POST /api/admin/provisioning/:id/retry → a failed job goes again
//   POST /api/admin/panel/refresh         → the view, read from the panel now (the Refresh button)
//   PUT  /api/admin/panel/settings         {stream_url?, cache_minutes?} → the same view
//   POST /api/admin/provisioning/:id/complete {username?, password?, line_id?, expires_on?, stream_url?} → a manual task done
//   GET  /api/admin/panel/drift?status=    → {data: differences the sync found, both sides' values} (drift.ts)
//   POST /api/admin/panel/drift/:id/fix {direction: push|accept} → fixed once, audited, through the lifecycle
//   POST /api/admin/panel/sync             → compare now ("Check now"; the nightly sync otherwise)
//   GET  /api/admin/panel/ledger           → {data: the credit ledger, newest first}
// The panel's packages and credits are read from the panel itself, kept for the owner's
// panel_cache_minutes (adapters/panel/cached.ts); its API key never leaves the server (not in
// answers, logs or the audit log).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import { PanelError, type PanelPackage } from "@/server/adapters/panel/panel";
import { requireAdmin } from "@/server/auth/guards";
import { clients, lineMacChanges, packages, panelCreditLedger, panelPackageMap, provisioningJobs, siteSettings } from "@/server/db/schema";
import { appForDevice } from "@/server/lib/accounts";
import { audit } from "@/server/lib/audit";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { loadRules, queueRestoredWhenEnabled } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueueAll } from "@/server/lib/outbox";
import { creditWarning, noteCreditBalance } from "@/server/lib/owner-alerts";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import {
  PANEL_PASSWORD_MESSAGE,
  PANEL_STREAM_URL_NEEDED,
  PANEL_USERNAME_MESSAGE,
  panelDriftFixSchema,
  panelMappingSchema,
  panelTaskCompleteSchema,
} from "@/shared/business-schemas";
import { PANEL_SETTINGS, panelSettingsSchema } from "@/shared/panel-settings";
import { fixDrift, listDrift } from "./drift";
import { credentialsMessages } from "./messages";
import { chargedBy, computeRunway, ledgerSummary, type Runway } from "./runway";
import { currentStreamUrl, loadPanelSettings, type PanelSettingsView, writePanelSetting } from "./settings";
import { DRIFT_KINDS, lastPanelCheck, type PanelCheck, runPanelSync } from "./sync";

const JOB_STATUSES = ["pending", "running", "done", "failed", "task"] as const;

const byId = { params: z.object({ id: z.uuid({ error: "Not a valid id" }) }) };

export interface PanelView extends PanelSettingsView {
  mode: string;
  connected: boolean;
  credits: number | null;
  low_credits: boolean;
  credit_warning: number;
  packages: PanelPackage[];
  mapping: Record<string, string>;
  /** our package id → the bouquets it includes (only packages with a choice; none: all) */
  bouquets: Record<string, string[]>;
  trial_package_id: string | null;
  /** why the panel could not be read, in the owner's words */
  error: string | null;
  /** when the credits and packages shown were read from the panel (ISO) */
  read_at: string | null;
  /** how long the credits last against the renewals due (issue 32 item 6) */
  runway: Runway;
  /** the credit ledger's totals (GET /api/admin/panel/ledger lists it) */
  ledger: Awaited<ReturnType<typeof ledgerSummary>>;
  /** what the last comparison of the panel's lines with ours found, or why it failed; null before the first */
  last_check: PanelCheck | null;
}

/** The panel as the dashboard shows it; a panel that cannot be reached is reported, not thrown. */
export async function panelView(app: FastifyInstance): Promise<PanelView> {
  const panel = app.provisioning.panel;
  const [mapRows, [trial], business, settings] = await Promise.all([
    app.db.select().from(panelPackageMap),
    app.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, TRIAL_PACKAGE_SETTING)),
    loadBusiness(app),
    loadPanelSettings(app),
  ]);
  const warning = creditWarning(business.settings);
  let credits: number | null = null;
  let panelPackages: PanelPackage[] = [];
  let error: string | null = null;
  try {
    // both answered (or failed) before the view does: no read of ours is left in flight
    const [info, list] = await Promise.allSettled([panel.userInfo(), panel.packages()]);
    if (info.status === "rejected") throw info.reason;
    if (list.status === "rejected") throw list.reason;
    ({ credits } = info.value);
    panelPackages = list.value;
  } catch (failure) {
    error = failure instanceof PanelError ? failure.message : "The panel could not be read.";
    app.log.warn({ status: failure instanceof PanelError ? failure.status : "ERROR" }, "panel read failed");
  }
  // Below the warning: the owner is alerted once per crossing (lib/owner-alerts.ts).
  await noteCreditBalance(app, credits, business.publicUrl);
  const [runway, ledger, lastCheck] = await Promise.all([
    computeRunway(app, credits, panelPackages),
    ledgerSummary(app),
    lastPanelCheck(app),
  ]);
  return {
    mode: panel.mode,
    connected: error === null && panel.mode !== "manual",
    credits,
    low_credits: credits !== null && credits < warning,
    credit_warning: warning,
    packages: panelPackages,
    mapping: Object.fromEntries(mapRows.map((r) => [r.package_id, r.panel_package_id])),
    bouquets: Object.fromEntries(mapRows.filter((r) => r.bouquets.length).map((r) => [r.package_id, r.bouquets])),
    trial_package_id: trial?.value || null,
    error,
    read_at: error === null && isCachedPanel(panel) ? (panel.readAt()?.toISOString() ?? null) : null,
    ...settings,
    runway,
    ledger,
    last_check: lastCheck,
  };
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireAdmin);
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get("/admin/panel", () => panelView(app));

  // The Refresh button: credits, packages and lines are read from the panel again, once.
  app.post("/admin/panel/refresh", async () => {
    const panel = app.provisioning.panel;
    if (isCachedPanel(panel)) panel.refresh();
    return panelView(app);
  });

  app.put("/admin/panel/settings", { schema: { body: panelSettingsSchema } }, async (request) => {
    const { stream_url: streamUrl, cache_minutes: cacheMinutes } = request.body;
    await app.db.transaction(async (tx) => {
      const before = await loadPanelSettings(app);
      if (streamUrl !== undefined) await writePanelSetting(tx, PANEL_SETTINGS.streamUrl, streamUrl);
      if (cacheMinutes !== undefined) await writePanelSetting(tx, PANEL_SETTINGS.cacheMinutes, String(cacheMinutes));
      await audit(tx, request, {
        action: "update",
        resource: "panel_settings",
        before: { stream_url: before.stream_url_setting, cache_minutes: before.cache_minutes },
        after: { stream_url: streamUrl ?? before.stream_url_setting, cache_minutes: cacheMinutes ?? before.cache_minutes },
      });
    });
    // this process reads its own write at once; others hear of it through the change feed
    app.cache.invalidateTable("site_settings");
    return panelView(app);
  });

  app.get(
    "/admin/panel/drift",
    {
      schema: {
        querystring: z.object({
          status: z.enum(["open", "fixed", "resolved", "all"], { error: "Status must be open, fixed, resolved or all" }).default("open"),
          kind: z.enum([...DRIFT_KINDS, "clients"], { error: `Kind must be one of ${[...DRIFT_KINDS, "clients"].join(", ")}` }).optional(),
          limit: z.coerce.number({ error: "Limit must be a whole number from 1 to 500" }).int().min(1).max(500).default(200),
          offset: z.coerce.number({ error: "Offset must be a whole number from 0" }).int().min(0).default(0),
        }),
      },
    },
    (request) => listDrift(app, request.query),
  );

  app.post("/admin/panel/drift/:id/fix", { schema: { ...byId, body: panelDriftFixSchema } }, async (request) => {
    const { drift, panelJobs } = await fixDrift(app, request, request.params.id, request.body);
    return { data: drift, panel_jobs: panelJobs };
  });

  app.post("/admin/panel/sync", async () => {
    // A panel that cannot be read is the panel's failure, told in the owner's words (and kept as the last check).
    const result = await runPanelSync(app, { force: true }).catch((failure: unknown) => {
      if (failure instanceof PanelError) throw new AppError(502, "panel", `The check failed: ${failure.message}`);
      throw failure;
    });
    if (!result) throw conflict("In manual mode there is no panel to compare with.");
    return { data: result };
  });

  app.get("/admin/panel/ledger", async () => {
    const rows = await app.db.select().from(panelCreditLedger).orderBy(desc(panelCreditLedger.created_at)).limit(500);
    return { data: rows.map((r) => ({ ...r, charged: chargedBy(r) })), total: rows.length };
  });

  app.put("/admin/panel/mapping", { schema: { body: panelMappingSchema } }, async (request) => {
    const view = await panelView(app);
    const known = new Set(view.packages.map((p) => p.id));
    const fields: Record<string, string> = {};
    const wanted = Object.entries(request.body.packages);
    const ours = wanted.length
      ? await app.db
          .select({ id: packages.id })
          .from(packages)
          .where(
            inArray(
              packages.id,
              wanted.map(([id]) => id),
            ),
          )
      : [];
    const ourIds = new Set(ours.map((p) => p.id));
    for (const [id, panelPackage] of wanted) {
      if (!ourIds.has(id)) fields[`packages.${id}`] = "That package does not exist.";
      else if (panelPackage && view.connected && !known.has(panelPackage)) fields[`packages.${id}`] = "The panel has no such package.";
    }
    const trial = request.body.trial;
    if (trial && view.connected && !known.has(trial)) fields.trial = "The panel has no such package.";
    // Bouquets: a subset of the (newly or already) mapped panel package's, read from the panel.
    const chosen = Object.entries(request.body.bouquets ?? {});
    const mappedTo = (id: string) => (request.body.packages[id] !== undefined ? request.body.packages[id] : view.mapping[id]) || null;
    for (const [id, list] of chosen) {
      const panelPackage = view.packages.find((p) => p.id === mappedTo(id));
      if (!panelPackage) fields[`bouquets.${id}`] = "Map this package to a panel package before choosing its bouquets.";
      else if (view.connected && list.some((b) => !panelPackage.bouquets.includes(b))) {
        fields[`bouquets.${id}`] = `Choose bouquets of the panel package "${panelPackage.name}" only.`;
      }
    }
    if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0], fields);

    await app.db.transaction(async (tx) => {
      const before = await tx.select().from(panelPackageMap);
      for (const [id, panelPackage] of wanted) {
        if (panelPackage) {
          await tx
            .insert(panelPackageMap)
            .values({ package_id: id, panel_package_id: panelPackage })
            .onConflictDoUpdate({ target: panelPackageMap.package_id, set: { panel_package_id: panelPackage, updated_at: new Date() } });
        } else {
          await tx.delete(panelPackageMap).where(eq(panelPackageMap.package_id, id));
        }
      }
      for (const [id, list] of chosen) {
        await tx
          .update(panelPackageMap)
          .set({ bouquets: [...new Set(list)], updated_at: new Date() })
          .where(eq(panelPackageMap.package_id, id));
      }
      if (trial !== undefined) {
        await tx
          .insert(siteSettings)
          .values({
            key: TRIAL_PACKAGE_SETTING,
            value: trial ?? "",
            description: "The panel package free trials are made on.",
            is_active: false,
          })
          .onConflictDoUpdate({ target: siteSettings.key, set: { value: trial ?? "", updated_at: new Date() } });
      }
      // Whether a package can be sold follows its mapping (lib/sellable.ts): touching the remapped
      // packages' rows tells every process's cached package list, and every open storefront, through the change feed.
      const remapped = wanted.filter(
        ([id, panelPackage]) => (before.find((b) => b.package_id === id)?.panel_package_id ?? "") !== panelPackage,
      );
      if (remapped.length) {
        await tx
          .update(packages)
          .set({ updated_at: sql`${packages.updated_at}` })
          .where(
            inArray(
              packages.id,
              remapped.map(([id]) => id),
            ),
          );
      }
      await audit(tx, request, {
        action: "update",
        resource: "panel_mapping",
        before,
        after: { packages: request.body.packages, trial, bouquets: request.body.bouquets },
      });
    });
    return panelView(app);
  });

  app.get(
    "/admin/provisioning",
    {
      schema: {
        querystring: z.object({
          status: z.enum(JOB_STATUSES, { error: "Status must be pending, running, done, failed or task" }).optional(),
        }),
      },
    },
    async (request) => {
      const rows = await app.db
        .select({
          id: provisioningJobs.id,
          client_id: provisioningJobs.client_id,
          client_full_name: clients.full_name,
          client_username: clients.username,
          action: provisioningJobs.action,
          package_name: provisioningJobs.package_name,
          trial: provisioningJobs.trial,
          status: provisioningJobs.status,
          attempts: provisioningJobs.attempts,
          next_attempt_at: provisioningJobs.next_attempt_at,
          error_status: provisioningJobs.error_status,
          last_error: provisioningJobs.last_error,
          panel_answer: provisioningJobs.panel_answer,
          instruction: provisioningJobs.instruction,
          done_at: provisioningJobs.done_at,
          created_at: provisioningJobs.created_at,
          client_panel_line_id: clients.panel_line_id,
        })
        .from(provisioningJobs)
        .innerJoin(clients, eq(clients.id, provisioningJobs.client_id))
        .where(request.query.status ? eq(provisioningJobs.status, request.query.status) : undefined)
        .orderBy(desc(provisioningJobs.created_at))
        .limit(200);
      return {
        data: rows.map(({ client_panel_line_id, ...job }) => ({
          ...job,
          needs_login: job.action === "create_line" && client_panel_line_id === null && job.status !== "done",
        })),
      };
    },
  );

  app.post("/admin/provisioning/:id/retry", { schema: byId }, async (request) => {
    const result = await app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(provisioningJobs).where(eq(provisioningJobs.id, request.params.id)).for("update");
      if (!before) throw notFound("No such panel job.");
      if (before.status !== "failed") throw conflict("Only a failed panel job can be retried.");
      const [after] = await tx
        .update(provisioningJobs)
        .set({ status: "pending", attempts: 0, next_attempt_at: new Date(), updated_at: new Date() })
        .where(and(eq(provisioningJobs.id, before.id), eq(provisioningJobs.status, "failed")))
        .returning();
      await audit(tx, request, { action: "retry", resource: "provisioning_jobs", resourceId: before.id, before, after });
      return after;
    });
    app.provisioning.nudge();
    return { data: result };
  });

  app.post("/admin/provisioning/:id/complete", { schema: { ...byId, body: panelTaskCompleteSchema } }, async (request) => {
    const [job] = await app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, request.params.id));
    if (!job) throw notFound("No such panel job.");
    if (job.status !== "task" && job.status !== "failed") throw conflict("This panel job is not waiting for you.");
    const [client] = await app.db.select().from(clients).where(eq(clients.id, job.client_id));
    if (!client) throw notFound("The client of this job no longer exists.");
    const makesLine = job.action === "create_line" && !client.panel_line_id;
    const { username, password, line_id: lineId, expires_on: expiresOn, stream_url: newStreamUrl } = request.body;
    // A login goes out only with a server to use it on: the URL set, or given with this task.
    const streamUrl = newStreamUrl ?? (await currentStreamUrl(app));
    if (makesLine && (!username || !password || !streamUrl)) {
      const fields: Record<string, string> = {};
      if (!username) fields.username = PANEL_USERNAME_MESSAGE;
      if (!password) fields.password = PANEL_PASSWORD_MESSAGE;
      if (!streamUrl) fields.stream_url = PANEL_STREAM_URL_NEEDED;
      throw badRequest(Object.values(fields)[0], fields);
    }
    // the panel's end date, as the owner read it there (end of that day in South Africa); else the paid term's
    const lineEnd = expiresOn ? new Date(`${expiresOn}T23:59:59+02:00`) : client.subscription_end;
    const business = await loadBusiness(app);
    const guide = makesLine ? await appForDevice(app.db, client.device) : null;
    // a reactivated client's "Line restored" waited for this task (lib/lifecycle.ts, queueRestoredWhenEnabled)
    const noticeContext =
      job.action === "enable_line" ? { business, templates: await loadTemplates(app.db), rules: await loadRules(app) } : null;
    const now = new Date();
    const done = await app.db.transaction(async (tx) => {
      const [after] = await tx
        .update(provisioningJobs)
        .set({ status: "done", done_at: now, updated_at: now, last_error: "" })
        .where(and(eq(provisioningJobs.id, job.id), inArray(provisioningJobs.status, ["task", "failed"])))
        .returning();
      if (!after) throw conflict("This panel job is not waiting for you.");
      if (makesLine && newStreamUrl && newStreamUrl !== (await loadPanelSettings(app)).stream_url_setting) {
        await writePanelSetting(tx, PANEL_SETTINGS.streamUrl, newStreamUrl);
        await audit(tx, request, { action: "update", resource: "panel_settings", after: { stream_url: newStreamUrl } });
      }
      if (makesLine) {
        const [updated] = await tx
          .update(clients)
          .set({
            panel_line_id: lineId || `manual:${job.id}`,
            line_username: username as string,
            line_password: password as string,
            line_expires_at: lineEnd,
            line_enabled: true,
            line_is_test: false,
            line_portal_url: streamUrl,
            updated_at: now,
          })
          .where(eq(clients.id, client.id))
          .returning();
        await enqueueAll(
          tx,
          credentialsMessages(
            business,
            {
              client: updated,
              line: { username: username as string, password: password as string, expires_at: lineEnd },
              streamUrl,
              test: false,
              app: guide,
              jobId: job.id,
            },
            await loadTemplates(tx),
          ),
        );
      } else if (job.action === "change_mac") {
        // The owner moved the box to its new MAC on the panel by hand.
        const [, changeId] = job.cause_key.split(":");
        const [change] = await tx
          .update(lineMacChanges)
          .set({ status: "done", done_at: now })
          .where(eq(lineMacChanges.id, changeId))
          .returning();
        if (change) await tx.update(clients).set({ line_mac: change.new_mac, updated_at: now }).where(eq(clients.id, client.id));
      } else if (job.action === "enable_line" || job.action === "disable_line") {
        await tx
          .update(clients)
          .set({ line_enabled: job.action === "enable_line", updated_at: now })
          .where(eq(clients.id, client.id));
      }
      const restored = noticeContext ? await queueRestoredWhenEnabled(tx, job, noticeContext) : false;
      await audit(tx, request, { action: "complete", resource: "provisioning_jobs", resourceId: job.id, before: job, after });
      return { after, told: makesLine || restored };
    });
    if (newStreamUrl) app.cache.invalidateTable("site_settings");
    if (done.told) app.outbox.nudge();
    return { data: done.after };
  });
};

export default routes;
