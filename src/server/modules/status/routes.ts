// GET /api/status: the status page's data (components, 90-day history, incidents, overall).
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { StatusResponse } from "@/shared/api";
import { saDay } from "@/shared/dates";
import { loadStatus, statusAt } from "./service";

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/status", { schema: { querystring: z.object({}) } }, async (_request, reply): Promise<StatusResponse> => {
    reply.header("cache-control", "no-cache");
    const now = new Date();
    const today = saDay(now);
    // Keyed by the business day, so the 90-day window moves at midnight even when nothing is written.
    const snapshot = await app.cache.get(`status:${today}`, ["system_components", "status_checks", "incidents"], () =>
      loadStatus(app.db, today, now),
    );
    return statusAt(snapshot, now.getTime());
  });
};

export default routes;
