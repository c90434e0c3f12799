// What each change of a client's term asks of the IPTV panel (docs/architecture.md,
// "Provisioning"). Called by the lifecycle module inside the change's transaction, so the
// panel work is queued exactly when — and exactly as often as — the change happens: the
// job's key is the change's cause key plus the action, unique in provisioning_jobs.
//   money in (payment captured)   → create_line (no line yet) or extend_line (edit_line, same package)
//   free trial started            → create_line with trial=1 on the trial package
//   suspended, expired            → disable_line
//   reactivated, or paid again    → enable_line (after the extension, when the line was off)
// A complimentary grant adds our time only: the panel charges whole packages, so the owner
// extends the line by hand if it must run longer (the nightly sync shows the difference).

import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { type capturedPayments, clients, provisioningJobs } from "@/server/db/schema";
import type { Cause, ClientStatus } from "@/shared/lifecycle";
import { keyedDigest } from "./secret-box";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type ClientRow = {
  id: string;
  status: string;
  panel_line_id: string | null;
  /** a login the owner typed in by hand, for a line made outside provisioning */
  line_username?: string;
  line_enabled: boolean;
  package_id: string | null;
  package_name: string;
};

/** The site setting naming the panel package a free trial's line is made on (IPTV panel page). */
export const TRIAL_PACKAGE_SETTING = "private_panel_trial_package";

export type PanelAction = "create_line" | "extend_line" | "enable_line" | "disable_line" | "change_mac" | "isp_clear";

export interface PlannedJob {
  action: PanelAction;
  trial?: boolean;
  package?: { id: string | null; name: string };
}

/** the statuses whose line runs */
export const SERVING_STATUSES: readonly string[] = ["active", "trial", "grace"] satisfies readonly ClientStatus[];

/** The panel work one lifecycle change asks for (pure: tested on its own). */
export function planPanelWork(
  before: ClientRow,
  after: ClientRow,
  cause: Cause,
  paidFor?: { id: string | null; name: string },
): PlannedJob[] {
  const hasLine = before.panel_line_id !== null;
  // A line the owner set up by hand (a login typed in, no panel id) stays theirs to manage:
  // provisioning never makes a second line over it.
  if (!hasLine && before.line_username) return [];
  switch (cause.kind) {
    case "payment-captured":
      return paidTimeWork(before, after, paidFor);
    case "trial-started":
      return hasLine ? [] : [{ action: "create_line", trial: true, package: { id: null, name: "Free trial" } }];
    case "complimentary-grant":
      return hasLine && SERVING_STATUSES.includes(after.status) && !before.line_enabled ? [{ action: "enable_line" }] : [];
    case "admin-suspend":
      return hasLine ? [{ action: "disable_line" }] : [];
    case "admin-reactivate":
      if (!SERVING_STATUSES.includes(after.status)) return [];
      if (hasLine) return [{ action: "enable_line" }];
      // Paid while suspended, before any line was made: the line is made now.
      return after.status === "active" ? [{ action: "create_line", package: { id: after.package_id, name: after.package_name } }] : [];
    case "refund":
      // The panel's line keeps its own expiry while the shorter term runs; the job that ends the term switches it off.
      return hasLine && after.status === "expired" && before.status !== "expired" ? [{ action: "disable_line" }] : [];
    case "merged-in": {
      // The merged client's line came with its time: only switched on if it was off.
      if (cause.lineMoved)
        return hasLine && SERVING_STATUSES.includes(after.status) && !before.line_enabled ? [{ action: "enable_line" }] : [];
      return paidTimeWork(before, after, paidFor);
    }
    case "merged-away":
      return hasLine && before.line_enabled ? [{ action: "disable_line" }] : [];
    case "panel-accepted":
      // Our side was set from the panel's: the panel already is as it should be.
      return [];
    case "term-ended":
    case "grace-ended":
      // Into grace the line keeps running; once expired it is switched off.
      return hasLine && after.status === "expired" ? [{ action: "disable_line" }] : [];
  }
}

/** A package's time paid for: a new line on it, or the line extended by it (and switched on if it was off). */
function paidTimeWork(before: ClientRow, after: ClientRow, paidFor?: { id: string | null; name: string }): PlannedJob[] {
  const pkg = paidFor ?? { id: after.package_id, name: after.package_name };
  // A suspended client's new line waits for the reactivation; an existing one is extended now.
  if (before.panel_line_id === null) return after.status === "suspended" ? [] : [{ action: "create_line", package: pkg }];
  const jobs: PlannedJob[] = [{ action: "extend_line", package: pkg }];
  if (SERVING_STATUSES.includes(after.status) && !before.line_enabled) jobs.push({ action: "enable_line" });
  return jobs;
}

/** Queues the planned jobs in `tx`, each once per cause. */
export async function queuePanelWork(tx: Tx, clientId: string, causeKey: string, jobs: PlannedJob[]): Promise<number> {
  let queued = 0;
  for (const job of jobs) {
    const rows = await tx
      .insert(provisioningJobs)
      .values({
        client_id: clientId,
        action: job.action,
        cause_key: `${causeKey}:${job.action}`,
        package_id: job.package?.id ?? null,
        package_name: job.package?.name ?? "",
        trial: job.trial ?? false,
      })
      .onConflictDoNothing({ target: provisioningJobs.cause_key })
      .returning({ id: provisioningJobs.id });
    queued += rows.length;
  }
  return queued;
}

const LOGIN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const fromDigest = (hex: string, length: number) =>
  Array.from({ length }, (_, i) => LOGIN_ALPHABET[Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16) % LOGIN_ALPHABET.length]).join("");

/**
 * The login a create_line job sends, derived from its cause key under the server's secret key:
 * the same on every attempt and in every process, unguessable from outside. After an answer that
 * was lost (a timeout, a 5xx) the worker looks this username up on the panel before sending the
 * create again, so a line is never made twice (docs/architecture.md, "Provisioning").
 */
export async function lineCredentials(
  executor: Parameters<typeof keyedDigest>[0],
  causeKey: string,
): Promise<{ username: string; password: string }> {
  const [user, pass] = await Promise.all([
    keyedDigest(executor, `panel-line-username:${causeKey}`),
    keyedDigest(executor, `panel-line-password:${causeKey}`),
  ]);
  // 10 characters: panels ask for at least 8 (XC_VM's default minimum is 10 when it makes one up).
  return { username: `sd${fromDigest(user, 8)}`, password: fromDigest(pass, 14) };
}

/**
 * The device a payment was for, kept on the client while their line is still to be made: a MAG
 * or Enigma2 box's MAC (the create_mag / create_enigma the worker sends). A client who has a
 * line keeps it; changing a box's MAC is its own request.
 */
export async function keepDeviceLine<C extends typeof clients.$inferSelect>(
  tx: Tx,
  client: C,
  payment: Pick<typeof capturedPayments.$inferSelect, "line_type" | "line_mac">,
): Promise<C> {
  if (payment.line_type === "m3u" || !payment.line_mac || client.panel_line_id) return client;
  if (client.line_type === payment.line_type && client.line_mac === payment.line_mac) return client;
  const [updated] = await tx
    .update(clients)
    .set({ line_type: payment.line_type, line_mac: payment.line_mac, updated_at: new Date() })
    .where(eq(clients.id, client.id))
    .returning();
  return (updated as C) ?? client;
}
