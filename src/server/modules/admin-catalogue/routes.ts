// The admin API for the catalogue, site content and the status page (docs/architecture.md, "API"):
// generic CRUD for each table in resources.ts (GET /api/admin/packages adds price_today), plus
//   POST /api/admin/packages/reorder {ids}      sort_order follows the list
//   POST /api/admin/settings                    upsert by key (201 new, 200 updated)
//   GET  /api/admin/alerts-email                where owner notices and alerts go, and the default
//   GET  /api/admin/branding, PUT /api/admin/branding   the branding map
//   POST /api/admin/incidents/:id/resolve
//   GET  /api/admin/demo-content, POST /api/admin/demo-content/confirm {item}   seeded claims still demo; keep one as true
// Every route needs an admin session (checked before the body is even read). The settings the
// subscription lifecycle reads (free_trial_hours, grace_days) are range-checked on every write,
// as are the owner's alert settings (shared/owner-alerts.ts; the alert number stored as 27…).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { requireAdmin } from "@/server/auth/guards";
import type { Db } from "@/server/db/client";
import { incidents, packages, siteBranding, siteSettings } from "@/server/db/schema";
import { confirmDemoItem, DEMO_ITEM, demoContentLeft } from "@/server/db/seed";
import { audit } from "@/server/lib/audit";
import { badRequest, conflict, notFound } from "@/server/lib/errors";
import { alertsEmail, firstAdminEmail } from "@/server/lib/owner-alerts";
import { brandingUpdateSchema, reorderSchema, settingInputSchema, settingPatchSchema } from "@/shared/admin-schemas";
import { type AlertsEmailView, storedOwnerAlertValue } from "@/shared/owner-alerts";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";
import { guardUnique, type Row, registerResource } from "./crud";
import { checkLifecycleSetting, incidentsResource, resources, settingsResource, withPriceToday } from "./resources";
import { bodyObject, parseBody, rowId } from "./validation";

async function brandingRows(db: Pick<Db, "select">): Promise<Record<string, string>> {
  const rows = await db.select().from(siteBranding).orderBy(asc(siteBranding.setting_name));
  return Object.fromEntries(rows.map((r) => [r.setting_name, r.setting_value]));
}

const routes: FastifyPluginAsync = async (app) => {
  app.addHook("onRequest", requireAdmin);

  // Registered before the generic routes so the static paths read first in the code too.
  app.post("/admin/packages/reorder", async (request) => {
    const { ids } = parseBody(reorderSchema, request.body);
    const rows = await app.db.transaction(async (tx) => {
      const found = await tx
        .select({ id: packages.id, sort_order: packages.sort_order })
        .from(packages)
        .where(inArray(packages.id, ids))
        .for("update");
      const unknown = ids.filter((id) => !found.some((f) => f.id === id));
      if (unknown.length) throw notFound(`Package not found: ${unknown.join(", ")}.`);
      for (const [index, id] of ids.entries()) {
        await tx
          .update(packages)
          .set({ sort_order: index + 1, updated_at: sql`now()` })
          .where(eq(packages.id, id));
      }
      // (wrapped in an object: the audit helper records objects field by field)
      const before = { order: ids.map((id) => ({ id, sort_order: found.find((f) => f.id === id)?.sort_order })) };
      const after = { order: ids.map((id, index) => ({ id, sort_order: index + 1 })) };
      await audit(tx, request, { action: "reorder", resource: "packages", before, after });
      return tx.select().from(packages).orderBy(asc(packages.sort_order), asc(packages.name), asc(packages.id));
    });
    // the same rows the list answers, so the dashboard can keep this answer as the list
    return { data: await withPriceToday(rows, app.db) };
  });

  // Settings are keyed: POST with an existing key changes the fields sent, a new key is created.
  app.post("/admin/settings", async (request, reply) => {
    const input = parseBody(settingInputSchema, request.body);
    const body = bodyObject(request.body);
    const patch = parseBody(settingPatchSchema, body);
    // The lifecycle's settings must hold values it can use: a value sent is checked here, a new
    // key without one below (an existing key keeps its stored value, checked when written).
    if ("value" in body) checkLifecycleSetting(input.key, input.value);
    // the owner's alert number in its one stored form (27…); checked above
    input.value = storedOwnerAlertValue(input.key, input.value);
    if (patch.value !== undefined) patch.value = storedOwnerAlertValue(input.key, patch.value);
    const result = await guardUnique(settingsResource.unique, () =>
      app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(siteSettings).where(eq(siteSettings.key, input.key)).for("update");
        if (before) {
          const changes: Row = {};
          for (const key of ["value", "description", "is_active"] as const) if (key in body) changes[key] = patch[key];
          const [after] = await tx
            .update(siteSettings)
            .set({ ...changes, updated_at: sql`now()` })
            .where(eq(siteSettings.id, before.id))
            .returning();
          await audit(tx, request, { action: "update", resource: "settings", resourceId: before.id, before, after });
          return { row: after, created: false };
        }
        if (!("value" in body)) checkLifecycleSetting(input.key, input.value);
        const [created] = await tx.insert(siteSettings).values(input).returning();
        await audit(tx, request, { action: "create", resource: "settings", resourceId: created.id, after: created });
        return { row: created, created: true };
      }),
    );
    return reply.status(result.created ? 201 : 200).send(result.row);
  });

  // The settings card shows where the owner's mail goes while no alert e-mail is set: the first admin's address.
  app.get("/admin/alerts-email", async (): Promise<{ data: AlertsEmailView }> => {
    const [email, first_admin] = await Promise.all([alertsEmail(app.db), firstAdminEmail(app.db)]);
    return { data: { email, first_admin } };
  });

  // Demo claims (issue 48 item 7): what still reads as seeded is marked in the dashboard and left
  // off the public site; the owner replaces it, or confirms it as true here.
  app.get("/admin/demo-content", async () => ({ data: await demoContentLeft(app.db) }));

  app.post("/admin/demo-content/confirm", async (request) => {
    const body = bodyObject(request.body);
    const item = typeof body.item === "string" ? body.item.trim() : "";
    const message = "Name a demo item: testimonial:<id> or homepage:<section>.<key>";
    if (!DEMO_ITEM.test(item)) throw badRequest(message, { item: message });
    const confirmed = await app.db.transaction(async (tx) => {
      const done = await confirmDemoItem(tx, item);
      if (done) await audit(tx, request, { action: "confirm-demo", resource: "demo_content", resourceId: item, after: { item } });
      return done;
    });
    if (!confirmed) throw notFound("That is not demo content (any more): nothing to confirm.");
    // this process reads its own write at once; others hear of it through the change feed
    app.cache.invalidateTable("site_settings");
    return { data: await demoContentLeft(app.db) };
  });

  for (const resource of resources) registerResource(app, resource);

  app.post("/admin/incidents/:id/resolve", async (request) => {
    const id = rowId((request.params as { id: string }).id, incidentsResource.label);
    return app.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(incidents)
        .where(and(eq(incidents.id, id), eq(incidents.kind, "incident")))
        .for("update");
      if (!before) throw notFound("Incident not found.");
      if (before.status === "resolved") throw conflict("This incident is already resolved.");
      const [after] = await tx
        .update(incidents)
        .set({ status: "resolved", resolved_at: sql`now()`, updated_at: sql`now()` })
        .where(eq(incidents.id, id))
        .returning();
      await audit(tx, request, { action: "resolve", resource: "incidents", resourceId: id, before, after });
      return after;
    });
  });

  app.get("/admin/branding", async () => ({ data: await brandingRows(app.db) }));

  // The four branding settings as one map; only the ones sent change, and each is checked.
  app.put("/admin/branding", async (request) => {
    const update = parseBody(brandingUpdateSchema, request.body);
    if (update.whatsapp_number !== undefined) update.whatsapp_number = normaliseWhatsAppNumber(update.whatsapp_number);
    return app.db.transaction(async (tx) => {
      // Lock the rows so two admins saving at once are applied one after the other.
      await tx.select({ id: siteBranding.id }).from(siteBranding).for("update");
      const before = await brandingRows(tx);
      for (const [name, value] of Object.entries(update)) {
        if (value === undefined) continue;
        await tx
          .insert(siteBranding)
          .values({ setting_name: name, setting_value: value, is_active: true })
          .onConflictDoUpdate({
            target: siteBranding.setting_name,
            set: { setting_value: value, is_active: true, updated_at: sql`now()` },
          });
      }
      const after = await brandingRows(tx);
      await audit(tx, request, { action: "update", resource: "branding", before, after });
      return { data: after };
    });
  });
};

export default routes;
