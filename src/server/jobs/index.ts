// Background jobs of one server process. Every job is safe to run in several processes at
// once (claims use SKIP LOCKED or idempotent writes), so each instance may run them.
import type { FastifyInstance } from "fastify";
import { purgeOldWindows } from "@/server/lib/rate-limit";
import { dataRequestRemindersJob } from "@/server/modules/data-requests/reminders";
import { autoRenewJob } from "./auto-renew";
import { healthMonitorJob } from "./health-monitor";
import { lifecycleJob } from "./lifecycle";
import { maintenanceJob } from "./maintenance";
import { ownerDigestJob } from "./owner-digest";
import { panelSyncJob } from "./panel-sync";
import { remindersJob } from "./reminders";
import { whatsappRetentionJob } from "./whatsapp-retention";
import { whatsappTemplatesJob } from "./whatsapp-templates";

type Job = { name: string; everyMs: number; run: (app: FastifyInstance) => Promise<unknown> };

/** Jobs other modules add (health monitor, reminders, ...). */
export const jobs: Job[] = [
  { name: "rate-limit-cleanup", everyMs: 5 * 60_000, run: (app) => purgeOldWindows(app.db) },
  healthMonitorJob,
  lifecycleJob,
  remindersJob,
  panelSyncJob,
  maintenanceJob,
  whatsappRetentionJob,
  ownerDigestJob,
  whatsappTemplatesJob,
  dataRequestRemindersJob,
  autoRenewJob,
];

export function startJobs(app: FastifyInstance): () => Promise<void> {
  app.outbox.start();
  app.provisioning.start();
  const timers = jobs.map((job) => {
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        await job.run(app);
      } catch (error) {
        app.log.warn({ err: error, job: job.name }, "job failed");
      } finally {
        busy = false;
      }
    };
    // A first run soon after start (status history, reminders) rather than a full interval later.
    const first = setTimeout(tick, 2_000);
    first.unref();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return [first, timer] as const;
  });
  return async () => {
    for (const [first, timer] of timers) {
      clearTimeout(first);
      clearInterval(timer);
    }
  };
}
