// A partner sells a line from their portal (issue 45 item 3), against the fake reseller panel on
// PGlite and (with TEST_DATABASE_URL) PostgreSQL: the line is made with member_id = the partner
// and costs their credits (moved back to the owner before it is made), too few credits is a 409
// in their words with nothing made, a create the panel refuses gives the cost back, a replay is
// the same line, and a partner sees only their own lines.
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { createPartnerSession, PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import { auditLog, outbox, packages, resellerCreditTransfers, resellerLines, resellers, siteSettings } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { MEMBER_GROUP_SETTING } from "@/server/modules/resellers/service";
import { createTestApp, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
/** our "3 Months" package, mapped to the panel's package 3 (3 credits) */
let threeMonths: string;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel({ existing: { m3u: 0, mag: 0, enigma2: 0 }, credits: 100 });
  t = await createTestApp(
    { PUBLIC_URL, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 500, PANEL_STREAM_URL: "http://tv.example.net" },
    { seed: true },
  );
  await t.app.db.insert(siteSettings).values({ key: MEMBER_GROUP_SETTING, value: "4", is_active: false });
  admin = await signInAdmin(t.app);
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.is_active, true)).limit(1);
  threeMonths = pkg.id;
  const mapped = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [threeMonths]: "3" } } });
  expect(mapped.statusCode, mapped.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.calls.length = 0;
  fake.credits = 100;
});

/** A partner on the panel with `credits` bought from the owner, and their session cookie. */
async function partner(credits: number) {
  const made = await admin.call({
    method: "POST",
    url: "/api/admin/resellers",
    payload: { name: `Seller ${++n}`, email: `seller${n}@example.co.za` },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json() as { id: string };
  if (credits) {
    const gave = await admin.call({
      method: "POST",
      url: `/api/admin/resellers/${id}/credits`,
      payload: { credits },
      headers: { "idempotency-key": `fund-${id}` },
    });
    expect(gave.statusCode, gave.body).toBe(201);
  }
  const { token } = await createPartnerSession(t.app.db, id, 1);
  const [row] = await t.app.db.select().from(resellers).where(eq(resellers.id, id));
  fake.calls.length = 0;
  return { id, panelId: row.panel_user_id ?? "", cookie: `${PARTNER_COOKIE}=${token}` };
}

const sell = (cookie: string, key: string, name = "Naledi Khumalo") =>
  t.app.inject({
    method: "POST",
    url: "/api/partner/lines",
    headers: { origin: PUBLIC_URL, cookie, "idempotency-key": key },
    payload: { name, whatsapp: "082 555 0199", email: "", package_id: threeMonths },
  });
const get = (cookie: string, url: string) => t.app.inject({ method: "GET", url, headers: { origin: PUBLIC_URL, cookie } });

describe("a partner's lines (item 3)", () => {
  it("makes the line with member_id = the partner, costing them the package's credits moved back to the owner first", async () => {
    const p = await partner(5);
    const ownerBefore = fake.credits;
    const res = await sell(p.cookie, "sell-1");
    expect(res.statusCode, res.body).toBe(201);
    const line = res.json().data;
    expect(line).toMatchObject({
      status: "done",
      name: "Naledi Khumalo",
      cost: 3,
      username: expect.stringMatching(/^sd/),
      server_url: "http://tv.example.net",
    });
    // the cost went back before the line was made
    expect(fake.calls.map((c) => c.action).filter((a) => a === "adjust_credits" || a === "create_line")).toEqual([
      "adjust_credits",
      "create_line",
    ]);
    expect(fake.callsOf("create_line")[0].form.member_id).toBe(p.panelId);
    expect(fake.made().at(-1)?.member_id).toBe(p.panelId);
    expect(fake.users.get(p.panelId)?.credits).toBe(2);
    // the owner got 3 back and paid 3 for the line
    expect(fake.credits).toBe(ownerBefore);
    const ledger = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(ledger.find((r) => r.cause === `line:${line.id}`)).toMatchObject({
      credits: -3,
      status: "done",
      partner_before: 5,
      partner_after: 2,
    });
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, line.id));
    expect(audited.map((a) => a.action)).toEqual(["line-create"]);
  });

  it("too few credits is a 409 'You need 3 credits; you have 1 — buy credits', and nothing is moved or made", async () => {
    const p = await partner(1);
    const res = await sell(p.cookie, "sell-poor");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.message).toBe("You need 3 credits; you have 1 — buy credits");
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    expect(fake.callsOf("create_line")).toHaveLength(0);
    expect(fake.users.get(p.panelId)?.credits).toBe(1);
    expect(await t.app.db.select().from(resellerLines).where(eq(resellerLines.reseller_id, p.id))).toHaveLength(0);
  });

  it("a create the panel refuses gives the cost back to the partner, and the line is kept as failed", async () => {
    const p = await partner(4);
    fake.failNext({ status: "STATUS_INVALID_PACKAGE" }, 1, "create_line");
    const res = await sell(p.cookie, "sell-refused");
    expect(res.statusCode, res.body).toBe(409);
    expect(fake.users.get(p.panelId)?.credits).toBe(4);
    const ledger = await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, p.id));
    expect(
      ledger
        .filter((r) => r.cause.startsWith("line"))
        .map((r) => [r.credits, r.status])
        .sort(),
    ).toEqual([
      [-3, "done"],
      [3, "done"],
    ]);
    const [line] = await t.app.db.select().from(resellerLines).where(eq(resellerLines.reseller_id, p.id));
    expect(line.status).toBe("failed");
  });

  it("the same Idempotency-Key again is the same line: one create, one charge", async () => {
    const p = await partner(9);
    const first = await sell(p.cookie, "sell-twice");
    const again = await sell(p.cookie, "sell-twice");
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(fake.callsOf("create_line")).toHaveLength(1);
    expect(fake.users.get(p.panelId)?.credits).toBe(6);
  });

  it("their customer gets the login by e-mail and WhatsApp through the outbox, from the partner with the partner's name and contact, the password sealed; a replay queues nothing more", async () => {
    const p = await partner(6);
    await t.app.db.update(resellers).set({ name: "Sipho Ndlovu TV", whatsapp: "27821112233" }).where(eq(resellers.id, p.id));
    const res = await t.app.inject({
      method: "POST",
      url: "/api/partner/lines",
      headers: { origin: PUBLIC_URL, cookie: p.cookie, "idempotency-key": "sell-with-login" },
      payload: { name: "Lerato Dube", whatsapp: "083 444 5566", email: "Lerato@Example.co.za", package_id: threeMonths },
    });
    expect(res.statusCode, res.body).toBe(201);
    const line = res.json().data as { id: string; username: string; password: string; package_name: string };
    const queued = await t.app.db
      .select()
      .from(outbox)
      .where(like(outbox.dedupe_key, `partner-line-login:${line.id}:%`));
    expect(queued.map((m) => [m.channel, m.recipient]).sort()).toEqual([
      ["email", "lerato@example.co.za"],
      ["whatsapp", "27834445566"],
    ]);
    for (const message of queued) {
      expect(message.kind).toBe("credentials");
      expect(message.subject).toBe(`Sipho Ndlovu TV: your ${line.package_name} line login`);
      expect(message.body).toContain("Hi Lerato,");
      expect(message.body).toContain("line from Sipho Ndlovu TV is ready");
      expect(message.body).toContain("Server: http://tv.example.net");
      expect(message.body).toContain(`Username: ${line.username}`);
      expect(message.body).toContain("Password: {{secret}}");
      expect(message.body).toContain(
        `Questions, or time to renew? Contact Sipho Ndlovu TV: WhatsApp +27 82 111 2233, e-mail ${(await t.app.db.select().from(resellers).where(eq(resellers.id, p.id)))[0].email}.`,
      );
      expect(message.body).not.toContain(line.password);
      expect(message.secret_enc).toBeTruthy();
    }

    const again = await t.app.inject({
      method: "POST",
      url: "/api/partner/lines",
      headers: { origin: PUBLIC_URL, cookie: p.cookie, "idempotency-key": "sell-with-login" },
      payload: { name: "Lerato Dube", whatsapp: "083 444 5566", email: "Lerato@Example.co.za", package_id: threeMonths },
    });
    expect(again.statusCode).toBe(200);
    expect(
      await t.app.db
        .select()
        .from(outbox)
        .where(like(outbox.dedupe_key, `partner-line-login:${line.id}:%`)),
    ).toHaveLength(2);
  });

  it("a partner lists only their own lines, and another partner's line is 404", async () => {
    const a = await partner(3);
    const b = await partner(3);
    const sold = await sell(b.cookie, "sell-b", "B's customer");
    expect(sold.statusCode, sold.body).toBe(201);
    const bLine = sold.json().data.id as string;
    const mine = await get(a.cookie, "/api/partner/lines");
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual([]);
    const theirs = await get(a.cookie, `/api/partner/lines/${bLine}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain("B's customer");
    expect((await get(b.cookie, `/api/partner/lines/${bLine}`)).json().data.name).toBe("B's customer");
  });
});
