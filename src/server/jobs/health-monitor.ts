// The health monitor's job: every 60 s, the checks when due (lib/health-monitor.ts), then drop
// the history past the retention period.
import type { FastifyInstance } from "fastify";
import { purgeOldChecks, runIfDue } from "@/server/lib/health-monitor";

const RUN_EVERY_MS = 60_000;

export const healthMonitorJob = {
  name: "health-monitor",
  everyMs: RUN_EVERY_MS,
  run: async (app: FastifyInstance) => {
    await runIfDue(app);
    await purgeOldChecks(app);
  },
};
