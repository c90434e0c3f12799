// What the portal shows around the subscription:
//   GET /api/client/notices → {data: notices for clients, incidents: open ones, components: not working}
//   GET /api/client/apps    → {data: apps for their device first, each with its install steps}
import { and, asc, desc, eq, isNull, ne, or } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireClient } from "@/server/auth/guards";
import type { Db } from "@/server/db/client";
import { incidents, systemComponents } from "@/server/db/schema";
import { listDownloads } from "@/server/modules/catalogue/service";
import { listNotices, noticesAt } from "@/server/modules/content/service";
import { incidentView } from "@/server/modules/status/service";
import type { Incident } from "@/shared/api";
import { type ClientApp, type ClientNoticesResponse, guideSteps } from "@/shared/client-schemas";
import { loadOwnClient } from "./service";

async function openIncidents(db: Db): Promise<Incident[]> {
  const rows = await db
    .select()
    .from(incidents)
    .where(and(eq(incidents.kind, "incident"), isNull(incidents.resolved_at), ne(incidents.status, "resolved")))
    .orderBy(desc(incidents.started_at), asc(incidents.id));
  return rows.map(incidentView);
}

async function troubledComponents(db: Db): Promise<ClientNoticesResponse["components"]> {
  const rows = await db
    .select()
    .from(systemComponents)
    .where(or(ne(systemComponents.status, "operational"), eq(systemComponents.maintenance, true)))
    .orderBy(asc(systemComponents.sort_order), asc(systemComponents.name));
  // An admin's maintenance flag wins over what the monitor last saw (as on the status page).
  return rows.map((c) => ({ key: c.key, name: c.name, status: c.maintenance ? "maintenance" : c.status, message: c.message }));
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache } = app;

  // Not per client: the same for everyone, so cached and invalidated by the change feed.
  app.get("/client/notices", { preHandler: requireClient }, async (): Promise<ClientNoticesResponse> => {
    const [list, open, components] = await Promise.all([
      cache.get("client:notices", ["notices"], () => listNotices(app.db, "clients")),
      cache.get("client:incidents", ["incidents"], () => openIncidents(app.db)),
      cache.get("client:components", ["system_components"], () => troubledComponents(app.db)),
    ]);
    return { data: noticesAt(list, Date.now()), incidents: open, components };
  });

  app.get("/client/apps", { preHandler: requireClient }, async (request): Promise<{ data: ClientApp[] }> => {
    const [client, apps] = await Promise.all([
      loadOwnClient(app, request),
      cache.get("client:downloads", ["downloads"], () => listDownloads(app.db)),
    ]);
    const withFit = apps.map((a) => ({
      ...a,
      for_your_device: client.device !== "" && a.device_compatibility.includes(client.device),
      steps: guideSteps(a.installation_guide),
    }));
    // Their device's apps first; otherwise the catalogue's order (featured first) is kept.
    return { data: [...withFit.filter((a) => a.for_your_device), ...withFit.filter((a) => !a.for_your_device)] };
  });
};

export default routes;
