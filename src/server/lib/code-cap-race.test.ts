// The shop-wide daily cap on WhatsApp codes (issue 46 item 2; verification.ts, underDailyCap)
// holds exactly when processes race for its last places: each racer on a connection of its own
// asks where a code can go (codeRoute) and issues it (issueCode), as identify does, all let go at
// the same moment (test-support/race.ts). PostgreSQL only: PGlite is one connection.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/server/db/client";
import { outbox, siteSettings, whatsappTemplates } from "@/server/db/schema";
import { makeClient, type TestClient } from "@/server/modules/client/test-helpers";
import { startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { WHATSAPP_CODE_CAP_SETTING } from "@/shared/code-limits";
import { saDay } from "@/shared/dates";
import { loadBusiness } from "./business";
import { codeRoute } from "./code-route";
import { issueCode, VERIFICATION_KIND } from "./verification";

const CAP = 2;
const RACERS = 6;
let t: TestApp;
const racers: Database[] = [];

beforeAll(async () => {
  if (!onPostgres()) return;
  t = await createTestApp({ LOG_LEVEL: "error" }, { seed: false });
  await t.app.db.insert(whatsappTemplates).values({ kind: VERIFICATION_KIND, template_name: "code_cap_race", params: ["secret"] });
  await t.app.db.insert(siteSettings).values({ key: WHATSAPP_CODE_CAP_SETTING, value: String(CAP), is_active: true });
  for (let i = 0; i < RACERS; i++) racers.push(await openDatabase({ databaseUrl: t.database.url, poolSize: 2 }));
});
afterAll(async () => {
  for (const racer of racers) await racer.close();
  await t?.close();
});

describe("the daily WhatsApp code cap under a race", () => {
  it.runIf(onPostgres())(
    `${RACERS} processes asking at once for the day's last ${CAP} places send exactly ${CAP} WhatsApp codes`,
    { timeout: 60_000 },
    async () => {
      const business = await loadBusiness(t.app);
      const people: TestClient[] = [];
      for (let i = 0; i < RACERS; i++) {
        people.push(await makeClient(t.app, { username: `cap-race-${i}`, full_name: `Cap Race ${i}`, whatsapp: `2782714700${i}` }));
      }
      const ask = async (racer: Database, i: number) => {
        const [to] = await codeRoute(racer.db, [{ channel: "whatsapp", recipient: `2782714700${i}` }], { cloudApi: true, email: false });
        if (!to) return "no route";
        return issueCode(racer.db, business, {
          purpose: "payment-identify",
          to: [to],
          clientId: people[i].id,
          requester: `ip:10.47.0.${i}`,
        });
      };
      // Every racer's first read (the template codeRoute asks about) waits on the lock; all go together.
      const outcomes = await startTogether(t.database.url as string, "LOCK TABLE whatsapp_templates IN ACCESS EXCLUSIVE MODE", RACERS, () =>
        Promise.all(racers.map((racer, i) => ask(racer, i))),
      );

      const start = new Date(`${saDay(new Date())}T00:00:00+02:00`);
      const sent = await t.app.db
        .select({ recipient: outbox.recipient })
        .from(outbox)
        .where(and(eq(outbox.kind, VERIFICATION_KIND), eq(outbox.channel, "whatsapp"), sql`${outbox.created_at} > ${start}`));
      expect(sent).toHaveLength(CAP);
      expect(outcomes.filter((o) => o === "sent")).toHaveLength(CAP);
      // the others were told no route (the cap already reached when they asked) or capped at the
      // issue, which callers route again rather than answer as sent (nothing stored for them)
      expect(outcomes.filter((o) => o !== "sent").every((o) => o === "no route" || o === "capped")).toBe(true);
    },
  );
});
