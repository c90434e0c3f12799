// POST /api/status/check: run the health monitor now (spec: system-health-monitor). Anyone may
// ask; the monitor runs at most once per 30 s across all processes, so asking is cheap. An
// admin session forces a run (the dashboard's "check now").
import type { FastifyPluginAsync } from "fastify";
import { readAdminSession } from "@/server/auth/sessions";
import { runIfDue } from "@/server/lib/health-monitor";

export interface StatusCheckResponse {
  success: true;
  /** false when a run finished less than 30 s ago (or another process is running one) */
  ran: boolean;
  /** when the latest recorded run finished (ISO), or null before the first run */
  checked_at: string | null;
}

const routes: FastifyPluginAsync = async (app) => {
  app.post("/status/check", async (request, reply): Promise<StatusCheckResponse> => {
    reply.header("cache-control", "no-store");
    const admin = await readAdminSession(app, request, reply);
    const result = await runIfDue(app, { force: admin !== null });
    return { success: true, ran: result.ran, checked_at: result.checkedAt };
  });
};

export default routes;
