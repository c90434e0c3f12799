// The credit ledger: a panel call that costs credits, with the balance before and after and the
// package's price, one row per job attempt.
import type { FastifyInstance } from "fastify";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import { MAYBE_DONE_STATUSES, type PanelAdapter, PanelError } from "@/server/adapters/panel/panel";
import { panelCreditLedger } from "@/server/db/schema";

import type { Job } from "./provisioning-job";

/** A panel call that costs credits: the job it serves, what it does, and the panel package it buys. */
export interface CostingCall<T> {
  job: Job;
  action: "create_line" | "extend_line";
  panelPackage: string;
  trial: boolean;
  call: () => Promise<T>;
}

/**
 * A panel call that costs credits, written to the credit ledger: the balance from user_info
 * just before and just after, the package's price, and how it ended (done, answer-lost —
 * the panel may have charged — or refused). A panel that does not count credits (the sandbox)
 * is called without a row. One row per job attempt, also when a read fails: the balance or price
 * it could not read is null and the note says why (logged too), never a row missing or a cost of 0.
 */
export async function ledgeredCall<T>(
  app: FastifyInstance,
  panel: PanelAdapter,
  { job, action, panelPackage, trial, call }: CostingCall<T>,
): Promise<T> {
  // the balance as the panel has it now, never a read kept for the dashboard (adapters/panel/cached.ts)
  const direct = isCachedPanel(panel) ? panel.uncached() : panel;
  // What could not be read goes on the row as unknown (null) with why: never a missing row, never a made-up 0.
  const unread: string[] = [];
  const why = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);
  // undefined: the panel does not count credits (the sandbox answers null); null: the read failed
  const credits = (when: string) =>
    direct.userInfo().then(
      (info) => info.credits ?? undefined,
      (error: unknown) => {
        unread.push(`balance ${when} not read: ${why(error)}`);
        return null;
      },
    );
  const before = await credits("before");
  if (before === undefined) return call();
  const cost = await panel.packages().then(
    (list) => {
      const pkg = list.find((p) => p.id === panelPackage);
      if (!pkg) unread.push(`package ${panelPackage} is not on the panel's package list: its price is unknown`);
      return pkg ? (trial ? pkg.trial_credits : pkg.official_credits) : null;
    },
    (error: unknown) => {
      unread.push(`package list not read: ${why(error)}`);
      return null;
    },
  );
  let outcome = "done";
  try {
    return await call();
  } catch (error) {
    outcome = error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status) ? "answer-lost" : "refused";
    throw error;
  } finally {
    const after = await credits("after");
    if (unread.length) app.log.warn({ job: job.id, unread }, "credit ledger row written with unknowns");
    await app.db
      .insert(panelCreditLedger)
      .values({
        job_id: job.id,
        client_id: job.client_id,
        action,
        cause_key: job.cause_key,
        attempt: job.attempts,
        panel_package_id: panelPackage,
        cost,
        credits_before: before,
        credits_after: after ?? null,
        outcome,
        note: unread.join("; "),
      })
      .onConflictDoNothing()
      .catch((error) => app.log.error({ err: error, job: job.id }, "credit ledger row not written"));
  }
}
