// Issue 46, item 5: a box MAC another client of ours holds is refused here, before the panel is
// asked. The portal's MAC change answers 409 in words the customer can act on, makes no panel call
// and no change row, and the owner gets an alert naming both clients (once a day per customer and
// MAC). The customer's own MAC, typed another way, is still "already your box's".
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { capturedPayments, clients, lineMacChanges, outbox, packages, provisioningJobs } from "@/server/db/schema";
import { clientSession, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { payOnSandbox } from "@/server/test-support/sandbox-payments";
import { createTestApp, type TestApp } from "@/server/testing";
import { MAC_HELD_MESSAGE } from "./mac-change";

const PUBLIC_URL = "http://localhost:8080";
let t: TestApp;
let fake: FakeXtreamPanel;
let monthId: string;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL, SANDBOX_SECRET: "mac-held-sandbox", PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 1_000 },
    { seed: true },
  );
  const admin = await signInAdmin(t.app);
  [{ id: monthId }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  expect((await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [monthId]: "1" } } })).statusCode).toBe(
    200,
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const payForBox = (name: string, mac: string) => {
  n += 1;
  return payOnSandbox(
    t.app,
    { name, whatsapp: `082 777 ${String(1000 + n)}`, immediateStartConsent: true, packageId: monthId, lineType: "mag", mac },
    `10.46.5.${n}`,
  );
};

/** Every call the fake panel has had, of any action. */
const panelCalls = () =>
  ["create_mag", "edit_mag", "create_enigma", "edit_enigma", "create_line", "edit_line"].flatMap((a) => fake.callsOf(a));

describe("a MAC another client holds (portal MAC change)", () => {
  let holderId: string;
  let moverId: string;
  let cookie: Record<string, string>;
  const change = (mac: string) =>
    t.app.inject({ method: "POST", url: "/api/client/line/mac", payload: { mac }, cookies: cookie, headers: { origin: PUBLIC_URL } });

  beforeAll(async () => {
    holderId = (await payForBox("Lerato Holds", "00:1A:79:46:00:01")).client_id as string;
    moverId = (await payForBox("Sizwe Moves", "00:1A:79:46:00:02")).client_id as string;
    await t.app.provisioning.drain();
    ({ cookie } = await clientSession(t.app, moverId));
  });

  it("is refused with 409 in the customer's words, before any panel call, and the owner is alerted", async () => {
    const callsBefore = panelCalls().length;
    // typed in lower case with dashes: the same MAC as the holder's
    const refused = await change("00-1a-79-46-00-01");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      "That MAC address is already registered to another account. Check the MAC on your box's About/Status screen, or contact us.",
    );
    expect(refused.json().error.fields.mac).toBe(MAC_HELD_MESSAGE);
    await t.app.provisioning.drain();
    expect(panelCalls()).toHaveLength(callsBefore);
    expect(await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, moverId))).toEqual([]);
    const jobs = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, moverId));
    expect(jobs.map((j) => j.action)).toEqual(["create_line"]);
    expect((await t.app.db.select().from(clients).where(eq(clients.id, moverId)))[0].line_mac).toBe("00:1A:79:46:00:02");

    const alerts = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "owner-alert"), like(outbox.dedupe_key, `mac-held:${moverId}:%`)));
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body).toContain("00:1A:79:46:00:01");
    expect(alerts[0].body).toContain("Sizwe Moves");
    expect(alerts[0].body).toContain("Lerato Holds");
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/clients/${holderId}`);

    // Asking again the same day: refused again, the owner not told twice.
    expect((await change("00:1A:79:46:00:01")).statusCode).toBe(409);
    expect(
      await t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, "owner-alert"), like(outbox.dedupe_key, `mac-held:${moverId}:%`))),
    ).toHaveLength(1);
  });

  it("a MAC nobody holds still moves the line", async () => {
    expect((await change("00:1A:79:46:00:03")).statusCode).toBe(202);
  });

  it("a MAC held only by a row that is the same person (merged away, or flagged as their possible duplicate) is not refused", async () => {
    const row = (username: string, mac: string, extra: Partial<typeof clients.$inferInsert>) =>
      t.app.db.insert(clients).values({ username, password_hash: "x", full_name: username, line_type: "mag", line_mac: mac, ...extra });
    await row("sizwe-old-account", "00:1A:79:46:00:04", { merged_into: moverId });
    await row("sizwe-second-account", "00:1A:79:46:00:05", { possible_duplicate_of: moverId });
    await t.app.db
      .update(lineMacChanges)
      .set({ created_at: new Date(Date.now() - 3 * 86_400_000) })
      .where(eq(lineMacChanges.client_id, moverId));
    expect((await change("00:1A:79:46:00:04")).statusCode).not.toBe(409);
    await t.app.db
      .update(lineMacChanges)
      .set({ created_at: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(lineMacChanges.client_id, moverId));
    const second = await change("00:1A:79:46:00:05");
    expect(second.json().error?.code).not.toBe("mac_held");
  });
});

describe("a MAC another client holds (a new box line at payment)", () => {
  let holderWhatsapp: string;

  beforeAll(async () => {
    const holder = await payForBox("Ayanda Holds", "00:1A:79:46:10:01");
    holderWhatsapp = `082 777 ${String(1000 + n)}`;
    expect(holder.client_id).toBeTruthy();
    await t.app.provisioning.drain();
  });

  const paylink = (order: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { immediateStartConsent: true, packageId: monthId, lineType: "mag", ...order },
      remoteAddress: `10.46.6.${++n}`,
    });

  it("is refused with 409 in the customer's words before any payment row or panel call, and the owner is alerted", async () => {
    const [{ payments }] = await t.app.db.select({ payments: count() }).from(capturedPayments);
    const callsBefore = panelCalls().length;
    const refused = await paylink({ name: "Stranger Box", whatsapp: "082 999 4601", mac: "00:1a:79:46:10:01" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MAC_HELD_MESSAGE);
    expect(refused.json().error.fields.mac).toBe(MAC_HELD_MESSAGE);
    await t.app.provisioning.drain();
    expect(panelCalls()).toHaveLength(callsBefore);
    const [{ after }] = await t.app.db.select({ after: count() }).from(capturedPayments);
    expect(after).toBe(payments);
    const alerts = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "owner-alert"), like(outbox.dedupe_key, "mac-held:buyer:27829994601:%")));
    expect(alerts).toHaveLength(1);
    expect(alerts[0].body).toContain("Stranger Box");
    expect(alerts[0].body).toContain("Ayanda Holds");
  });

  it("lets the holder pay again for their own box without signing in (their number typed)", async () => {
    const again = await paylink({ name: "Ayanda Holds", whatsapp: holderWhatsapp, mac: "00:1A:79:46:10:01" });
    expect(again.statusCode, again.body).toBe(201);
  });
});
