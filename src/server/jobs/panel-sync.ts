// Nightly: read the lines from the panel and flag each client whose line there disagrees with
// ours (missing, switched off while they should watch, on while they should not, or ending on
// another day). Flags only: the client page shows the difference and the owner decides; nothing
// is overwritten silently. One process runs it per night (a claim on a private setting).
import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import type { PanelLine } from "@/server/adapters/panel/panel";
import { clients, siteSettings } from "@/server/db/schema";
import { formatDate } from "@/shared/dates";

const EVERY_MS = 60 * 60_000;
/** At most one sync in this many hours, whatever the number of processes. */
const MIN_GAP_HOURS = 20;
const LAST_SYNC_SETTING = "private_panel_last_sync";
const DAY_MS = 86_400_000;
const SERVING = ["active", "trial", "grace"];

type Client = Pick<typeof clients.$inferSelect, "status" | "subscription_end" | "line_enabled">;

/** What differs between our client and their line on the panel ('' when they agree). */
export function syncIssue(client: Client, line: PanelLine | undefined): string {
  if (!line) return "The line is not on the panel any more.";
  const issues: string[] = [];
  const shouldWatch = SERVING.includes(client.status);
  if (shouldWatch && !line.enabled) issues.push("The panel has the line switched off, but the client should be watching.");
  if (!shouldWatch && line.enabled && (client.status === "suspended" || client.status === "expired")) {
    issues.push(`The panel has the line on, but the client is ${client.status}.`);
  }
  // A trial or paid term and the panel's expiry may differ by the hours of the day; a day or more is a difference.
  if (
    shouldWatch &&
    line.expires_at &&
    client.subscription_end &&
    Math.abs(line.expires_at.getTime() - client.subscription_end.getTime()) >= DAY_MS
  ) {
    issues.push(`The panel's line ends on ${formatDate(line.expires_at)}, our term on ${formatDate(client.subscription_end)}.`);
  }
  return issues.join(" ");
}

/** Claims tonight's sync for this process; false when another ran it within MIN_GAP_HOURS. */
async function claim(app: FastifyInstance, now: Date): Promise<boolean> {
  await app.db
    .insert(siteSettings)
    .values({ key: LAST_SYNC_SETTING, value: "", description: "When the panel lines were last compared with ours.", is_active: false })
    .onConflictDoNothing({ target: siteSettings.key });
  const cutoff = new Date(now.getTime() - MIN_GAP_HOURS * 3_600_000).toISOString();
  const claimed = await app.db
    .update(siteSettings)
    .set({ value: now.toISOString(), updated_at: now })
    .where(and(eq(siteSettings.key, LAST_SYNC_SETTING), or(eq(siteSettings.value, ""), lt(siteSettings.value, cutoff))))
    .returning({ id: siteSettings.id });
  return claimed.length > 0;
}

/** One sync. `force` skips the once-a-night claim (the dashboard's "Check now", tests). */
export async function runPanelSync(
  app: FastifyInstance,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ checked: number; flagged: number } | null> {
  const panel = app.provisioning.panel;
  if (panel.mode === "manual") return null;
  const now = options.now ?? new Date();
  if (!options.force && !(await claim(app, now))) return null;
  // "Check now" reads the panel afresh; the nightly run may use a read kept minutes ago
  if (options.force && isCachedPanel(panel)) panel.refresh();
  const lines = new Map((await panel.lines()).map((line) => [line.id, line]));
  const linked = await app.db
    .select({
      id: clients.id,
      status: clients.status,
      subscription_end: clients.subscription_end,
      line_enabled: clients.line_enabled,
      panel_line_id: clients.panel_line_id,
      line_sync_issue: clients.line_sync_issue,
    })
    .from(clients)
    .where(and(isNotNull(clients.panel_line_id), sql`${clients.panel_line_id} not like 'manual:%'`));
  let flagged = 0;
  for (const client of linked) {
    const line = lines.get(client.panel_line_id as string);
    const issue = syncIssue(client, line);
    if (issue) flagged++;
    const changes: Partial<typeof clients.$inferInsert> = {};
    if (issue !== client.line_sync_issue) changes.line_sync_issue = issue;
    // What the panel reports is recorded as the panel's; our term is left as it is.
    if (line) {
      changes.line_expires_at = line.expires_at;
      changes.line_enabled = line.enabled;
    }
    await app.db.update(clients).set(changes).where(eq(clients.id, client.id));
  }
  if (flagged) app.log.info({ checked: linked.length, flagged }, "panel lines differ from ours");
  return { checked: linked.length, flagged };
}

export const panelSyncJob = {
  name: "panel-sync",
  everyMs: EVERY_MS,
  run: (app: FastifyInstance) => runPanelSync(app),
};
