// The one rule for a client's subscription period, used wherever money or an admin buys
// time: a payment captured by the webhook, an EFT an admin confirms, a manual payment, the
// admin's Extend button. Paid time is added to what is left, never lost: the new end is the
// package's months after max(now, current end). A new period starts now; a trial is 24 hours.
import { eq } from "drizzle-orm";
import { addMonths } from "../../shared/dates";
import { monthsFromDuration } from "../../shared/pricing";
import type { Db } from "../db/client";
import { clients, packages } from "../db/schema";

export const TRIAL_HOURS = 24;

type Executor = Pick<Db, "select" | "update">;
export type ClientRow = typeof clients.$inferSelect;

/** When a trial that starts at `start` ends. */
export function trialEnd(start: Date): Date {
  return new Date(start.getTime() + TRIAL_HOURS * 3_600_000);
}

/** When `months` bought from `start` run out (same South African wall-clock time, month-end safe). */
export function paidEnd(start: Date, months: number): Date {
  return addMonths(start, months);
}

/** How many months a package buys: its duration_months, else what its duration text says. */
export function packageMonths(pkg: { duration_months: number | null; duration?: string; name?: string } | null | undefined): number | null {
  if (!pkg) return null;
  if (pkg.duration_months !== null && pkg.duration_months > 0) return pkg.duration_months;
  return monthsFromDuration(pkg.duration ?? "") ?? monthsFromDuration(pkg.name ?? "");
}

export interface ExtendInput {
  clientId: string;
  /** the package bought; its months decide the extension */
  packageId?: string | null;
  /** the package's name as paid for (kept on the client; read for months when the package row is gone) */
  packageName?: string;
  now?: Date;
  /**
   * A suspension is an operator's decision that a payment alone does not undo: by default a
   * suspended client stays suspended (with the time added). The admin's own Extend lifts it.
   */
  liftSuspension?: boolean;
}

export interface Extended {
  /** the client row after the change */
  client: ClientRow;
  /** months added; 0 when the package buys no time (nothing changed) */
  months: number;
  subscriptionEnd: Date | null;
}

/**
 * Extends a client's subscription by a package's months, inside the caller's transaction
 * (the client row is locked, so two payments landing together both count). Returns null
 * when the client does not exist.
 */
export async function extendSubscription(tx: Executor, input: ExtendInput): Promise<Extended | null> {
  const now = input.now ?? new Date();
  const [client] = await tx.select().from(clients).where(eq(clients.id, input.clientId)).for("update");
  if (!client) return null;
  const [pkg] = input.packageId
    ? await tx
        .select({ id: packages.id, name: packages.name, duration: packages.duration, duration_months: packages.duration_months })
        .from(packages)
        .where(eq(packages.id, input.packageId))
    : [];
  const packageName = input.packageName || pkg?.name || "";
  const months = packageMonths(pkg) ?? monthsFromDuration(packageName);
  if (!months || months <= 0) return { client, months: 0, subscriptionEnd: client.subscription_end };

  const running = client.subscription_end !== null && client.subscription_end > now;
  const subscriptionEnd = paidEnd(running ? (client.subscription_end as Date) : now, months);
  const status = client.status === "suspended" && !input.liftSuspension ? "suspended" : "active";
  const [updated] = await tx
    .update(clients)
    .set({
      status,
      // A running period keeps its start; a lapsed (or trial-only) one starts again now.
      subscription_start: running && client.status !== "trial" ? (client.subscription_start ?? now) : now,
      subscription_end: subscriptionEnd,
      // A package deleted since the payment leaves the client's own package link as it was.
      package_id: pkg?.id ?? client.package_id,
      package_name: packageName || client.package_name,
      updated_at: now,
    })
    .where(eq(clients.id, client.id))
    .returning();
  return { client: updated, months, subscriptionEnd };
}
