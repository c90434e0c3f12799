// The sandbox panel: what a reseller panel would do, kept in our own database, so the shop
// shows the whole journey (paid → line → credentials) with no panel configured. Its lines are
// test lines with generated logins; the dashboard marks them as such.
import { randomInt } from "node:crypto";
import { and, eq, gte, like, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { sandboxPanelLines, sandboxPanelUsers } from "@/server/db/schema";
import { addMonths } from "@/shared/dates";
import type * as Contract from "./panel";
import { PanelError } from "./panel";

const pkg = (id: string, name: string, months: number): Contract.PanelPackage => ({
  id,
  name,
  is_trial: false,
  is_official: true,
  official_credits: months,
  trial_credits: 0,
  official_duration: months,
  official_duration_in: "months",
  trial_duration: 0,
  trial_duration_in: "hours",
  max_connections: 1,
  bouquets: [],
});

/** What the sandbox panel's logins connect to: plainly not a real server. */
export const SANDBOX_STREAM_URL = "http://sandbox-panel.invalid:8080";

/** The sandbox panel's packages: one per usual length, and a 24-hour trial. */
export const SANDBOX_PACKAGES: Contract.PanelPackage[] = [
  pkg("sbx-1m", "Sandbox 1 Month", 1),
  pkg("sbx-3m", "Sandbox 3 Months", 3),
  pkg("sbx-6m", "Sandbox 6 Months", 6),
  pkg("sbx-12m", "Sandbox 12 Months", 12),
  pkg("sbx-24m", "Sandbox 24 Months", 24),
  {
    ...pkg("sbx-trial", "Sandbox Trial 24 Hours", 0),
    is_trial: true,
    is_official: false,
    trial_credits: 0,
    trial_duration: 24,
    trial_duration_in: "hours",
  },
];

const LOGIN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const random = (length: number) => Array.from({ length }, () => LOGIN_ALPHABET[randomInt(LOGIN_ALPHABET.length)]).join("");

type Row = typeof sandboxPanelLines.$inferSelect;
/** A box's line keeps its type and MAC at the end of the contact: '… · mag 00:1A:79:…'. */
const DEVICE_MARK = / · (mag|enigma2) ([0-9A-F:]{17})$/;
const toLine = (row: Row): Contract.PanelLine => {
  const device = DEVICE_MARK.exec(row.contact);
  return {
    id: row.id,
    username: row.username,
    password: row.password,
    expires_at: row.exp_date,
    enabled: row.enabled,
    max_connections: 1,
    ...(device ? { type: device[1] as Contract.LineType, mac: device[2] } : {}),
  };
};

type UserRow = typeof sandboxPanelUsers.$inferSelect;
const toReseller = (row: UserRow): Contract.PanelReseller => ({
  id: row.id,
  username: row.username,
  email: row.email,
  credits: row.credits,
  enabled: row.enabled,
  notes: row.notes,
});

function packageOf(id: string): Contract.PanelPackage {
  const found = SANDBOX_PACKAGES.find((p) => p.id === id);
  if (!found)
    throw new PanelError(
      "The panel does not know that package. Check the package mapping.",
      "STATUS_INVALID_PACKAGE",
      false,
      `{"status":"STATUS_INVALID_PACKAGE"}`,
    );
  return found;
}

/** Where a package's time runs to from `from`. */
function addDuration(from: Date, p: Contract.PanelPackage, trial: boolean): Date {
  if (trial) return new Date(from.getTime() + p.trial_duration * 3_600_000);
  return addMonths(from, p.official_duration);
}

export function createSandboxPanel(db: Db): Contract.PanelAdapter {
  async function find(id: string): Promise<Row> {
    const [row] = await db.select().from(sandboxPanelLines).where(eq(sandboxPanelLines.id, id));
    if (!row)
      throw new PanelError("The panel has no such line.", "STATUS_FAILURE_NO_LINE", false, `{"status":"STATUS_FAILURE","error":"no line"}`);
    return row;
  }

  return {
    mode: "sandbox",
    async userInfo() {
      return { credits: null };
    },
    async packages() {
      return SANDBOX_PACKAGES;
    },
    async lines() {
      return (await db.select().from(sandboxPanelLines)).map(toLine);
    },
    async findLine(key: string, type?: Contract.LineType) {
      if (type === "mag" || type === "enigma2") {
        const rows = await db
          .select()
          .from(sandboxPanelLines)
          .where(like(sandboxPanelLines.contact, `% · ${type} ${key}`));
        return rows[0] ? toLine(rows[0]) : null;
      }
      const [row] = await db.select().from(sandboxPanelLines).where(eq(sandboxPanelLines.username, key));
      return row ? toLine(row) : null;
    },
    async createLine(input: Contract.CreateLineInput) {
      const p = packageOf(input.package);
      const trial = input.trial || p.is_trial;
      for (let attempt = 0; ; attempt++) {
        const [row] = await db
          .insert(sandboxPanelLines)
          .values({
            // The job's own login when it sends one (a real panel keeps it too), else a made-up one.
            username: input.type === "mag" || input.type === "enigma2" ? `test${random(10)}` : (input.username ?? `test${random(6)}`),
            password: input.password ?? random(10),
            panel_package_id: p.id,
            trial,
            exp_date: addDuration(new Date(), p, trial),
            contact: input.type === "mag" || input.type === "enigma2" ? `${input.contact} · ${input.type} ${input.mac}` : input.contact,
          })
          .onConflictDoNothing({ target: sandboxPanelLines.username })
          .returning();
        if (row) return toLine(row);
        if (input.username) throw new PanelError("That username already exists on the panel.", "STATUS_EXISTS_USERNAME", false);
        if (attempt >= 5) throw new PanelError("The panel could not make a free username.", "STATUS_EXISTS_USERNAME", false);
      }
    },
    async editLine(input) {
      const row = await find(input.id);
      const p = packageOf(input.package);
      const now = new Date();
      const from = row.exp_date && row.exp_date > now ? row.exp_date : now;
      const [updated] = await db
        .update(sandboxPanelLines)
        .set({ exp_date: addDuration(from, p, false), panel_package_id: p.id, trial: false, updated_at: now })
        .where(eq(sandboxPanelLines.id, row.id))
        .returning();
      return toLine(updated);
    },
    async enableLine(id) {
      await find(id);
      await db.update(sandboxPanelLines).set({ enabled: true, updated_at: new Date() }).where(eq(sandboxPanelLines.id, id));
    },
    async clearIspLock(id) {
      // The sandbox's test lines have no ISP lock: nothing to reset.
      await find(id);
    },
    async changeMac({ id, type, mac }) {
      const row = await find(id);
      const contact = row.contact.replace(DEVICE_MARK, "");
      await db
        .update(sandboxPanelLines)
        .set({ contact: `${contact} · ${type} ${mac}`, updated_at: new Date() })
        .where(eq(sandboxPanelLines.id, id));
    },
    async disableLine(id) {
      await find(id);
      await db.update(sandboxPanelLines).set({ enabled: false, updated_at: new Date() }).where(eq(sandboxPanelLines.id, id));
    },
    // Sub-resellers, kept beside the lines. The sandbox reseller's own balance is unknown
    // (userInfo: null), so only the sub-reseller's side can refuse to go below 0.
    async createUser(input) {
      const [row] = await db
        .insert(sandboxPanelUsers)
        .values({
          username: input.username,
          password: input.password,
          email: input.email,
          member_group_id: input.member_group_id,
          notes: input.notes,
        })
        .onConflictDoNothing({ target: sandboxPanelUsers.username })
        .returning();
      if (!row) throw new PanelError("That username already exists on the panel.", "STATUS_EXISTS_USERNAME", false);
      return toReseller(row);
    },
    async adjustCredits({ id, credits }) {
      const [moved] = await db
        .update(sandboxPanelUsers)
        .set({ credits: sql`${sandboxPanelUsers.credits} + ${credits}` })
        .where(and(eq(sandboxPanelUsers.id, id), gte(sql`${sandboxPanelUsers.credits} + ${credits}`, 0)))
        .returning({ id: sandboxPanelUsers.id });
      if (moved) return;
      const [known] = await db.select({ id: sandboxPanelUsers.id }).from(sandboxPanelUsers).where(eq(sandboxPanelUsers.id, id));
      if (!known) throw new PanelError("The panel has no such sub-reseller.", "STATUS_FAILURE", false);
      throw new PanelError("The panel says there are not enough credits.", "STATUS_INSUFFICIENT_CREDITS", false);
    },
    async users() {
      return (await db.select().from(sandboxPanelUsers)).map(toReseller);
    },
  };
}
