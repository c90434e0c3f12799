// The panel sync's timer: every hour it asks modules/panel/sync.ts to sync, which does so at
// most once in 20 hours across all processes.
import type { FastifyInstance } from "fastify";
import { runPanelSync } from "@/server/modules/panel/sync";

const EVERY_MS = 60 * 60_000;

export const panelSyncJob = {
  name: "panel-sync",
  everyMs: EVERY_MS,
  run: (app: FastifyInstance) => runPanelSync(app),
};
