// A partner renews, switches off and switches on their customers' lines (issue 45 item 3), against
// the fake reseller panel on PGlite and (with TEST_DATABASE_URL) PostgreSQL: a renewal costs the
// package's credits moved back to the owner before the panel extends the line, a refused renewal
// gives them back, a replayed Idempotency-Key renews and charges once, too few credits is a 409
// with nothing moved, and another partner's line is 404 with nothing asked of the panel.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { createPartnerSession, PARTNER_COOKIE } from "@/server/auth/partner-sessions";
import {
  auditLog,
  packages,
  resellerCreditTransfers,
  resellerLineRenewals,
  resellerLines,
  resellers,
  siteSettings,
} from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { MEMBER_GROUP_SETTING } from "@/server/modules/resellers/service";
import { createTestApp, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
/** our package mapped to the panel's package 3 (3 credits, 3 months) */
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
  fake.credits = 100;
});

/** A partner on the panel with `credits`, their session cookie, and one line sold (3 credits). */
async function partnerWithLine(credits: number) {
  const made = await admin.call({
    method: "POST",
    url: "/api/admin/resellers",
    payload: { name: `Renewer ${++n}`, email: `renewer${n}@example.co.za` },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { id } = made.json() as { id: string };
  const gave = await admin.call({
    method: "POST",
    url: `/api/admin/resellers/${id}/credits`,
    payload: { credits },
    headers: { "idempotency-key": `fund-renewer-${id}` },
  });
  expect(gave.statusCode, gave.body).toBe(201);
  const { token } = await createPartnerSession(t.app.db, id, 1);
  const [row] = await t.app.db.select().from(resellers).where(eq(resellers.id, id));
  const cookie = `${PARTNER_COOKIE}=${token}`;
  const sold = await t.app.inject({
    method: "POST",
    url: "/api/partner/lines",
    headers: { origin: PUBLIC_URL, cookie, "idempotency-key": `sell-${id}` },
    payload: { name: "Thandi Mokoena", whatsapp: "082 555 0177", email: "", package_id: threeMonths },
  });
  expect(sold.statusCode, sold.body).toBe(201);
  const line = sold.json().data as { id: string; username: string; expires_at: string };
  const [stored] = await t.app.db.select().from(resellerLines).where(eq(resellerLines.id, line.id));
  fake.calls.length = 0;
  return { id, panelId: row.panel_user_id ?? "", cookie, line, panelLineId: stored.panel_line_id ?? "" };
}

const act = (cookie: string, lineId: string, what: "renew" | "switch-off" | "switch-on", key?: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/partner/lines/${lineId}/${what}`,
    headers: { origin: PUBLIC_URL, cookie, ...(key ? { "idempotency-key": key } : {}) },
  });
const partnerCredits = (panelId: string) => fake.users.get(panelId)?.credits;
const renewalLedger = async (partnerId: string) =>
  (await t.app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.reseller_id, partnerId)))
    .filter((r) => r.cause.includes(":renew:"))
    .map((r) => [r.cause.split(":")[0], r.credits, r.status])
    .sort();

describe("a partner renews a line (item 3)", () => {
  it("moves the package's credits back to the owner before the panel extends the line, and keeps the new expiry", async () => {
    const p = await partnerWithLine(6);
    expect(partnerCredits(p.panelId)).toBe(3);
    const ownerBefore = fake.credits;
    const res = await act(p.cookie, p.line.id, "renew", "renew-1");
    expect(res.statusCode, res.body).toBe(200);
    const renewed = res.json().data as { expires_at: string; status: string };
    expect(renewed.status).toBe("done");
    expect(new Date(renewed.expires_at).getTime()).toBeGreaterThan(new Date(p.line.expires_at).getTime());
    expect(fake.calls.map((c) => c.action).filter((a) => a === "adjust_credits" || a === "edit_line")).toEqual([
      "adjust_credits",
      "edit_line",
    ]);
    expect(fake.callsOf("edit_line")[0].form).toMatchObject({ id: p.panelLineId, package: "3" });
    expect(partnerCredits(p.panelId)).toBe(0);
    // the owner got 3 back and the panel charged them 3 for the renewal
    expect(fake.credits).toBe(ownerBefore);
    expect(await renewalLedger(p.id)).toEqual([["line", -3, "done"]]);
    const [line] = await t.app.db.select().from(resellerLines).where(eq(resellerLines.id, p.line.id));
    expect(line.expires_at?.toISOString()).toBe(renewed.expires_at);
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, p.line.id));
    expect(audited.map((a) => a.action).sort()).toEqual(["line-create", "line-renew"]);
  });

  it("the same Idempotency-Key again is the same renewal: one extension, credits moved once", async () => {
    const p = await partnerWithLine(9);
    const first = await act(p.cookie, p.line.id, "renew", "renew-twice");
    const again = await act(p.cookie, p.line.id, "renew", "renew-twice");
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json().data.expires_at).toBe(first.json().data.expires_at);
    expect(fake.callsOf("edit_line")).toHaveLength(1);
    expect(fake.callsOf("adjust_credits")).toHaveLength(1);
    expect(partnerCredits(p.panelId)).toBe(3);
    expect(await renewalLedger(p.id)).toEqual([["line", -3, "done"]]);
    expect(await t.app.db.select().from(resellerLineRenewals).where(eq(resellerLineRenewals.line_id, p.line.id))).toHaveLength(1);
  });

  it("a renewal the panel refuses gives the credits back; the line keeps its expiry", async () => {
    const p = await partnerWithLine(6);
    fake.failNext({ status: "STATUS_INVALID_PACKAGE" }, 1, "edit_line");
    const res = await act(p.cookie, p.line.id, "renew", "renew-refused");
    expect(res.statusCode, res.body).toBe(409);
    expect(partnerCredits(p.panelId)).toBe(3);
    expect(await renewalLedger(p.id)).toEqual([
      ["line", -3, "done"],
      ["line-refund", 3, "done"],
    ]);
    const [renewal] = await t.app.db.select().from(resellerLineRenewals).where(eq(resellerLineRenewals.line_id, p.line.id));
    expect(renewal.status).toBe("failed");
    const [line] = await t.app.db.select().from(resellerLines).where(eq(resellerLines.id, p.line.id));
    expect(line.expires_at?.toISOString()).toBe(p.line.expires_at);
    // the same key again answers the same refusal, and moves nothing more
    const again = await act(p.cookie, p.line.id, "renew", "renew-refused");
    expect(again.statusCode).toBe(409);
    expect(partnerCredits(p.panelId)).toBe(3);
    expect(fake.callsOf("adjust_credits")).toHaveLength(2);
  });

  it("too few credits is a 409 'You need 3 credits; you have 0 — buy credits', and nothing is moved or extended", async () => {
    const p = await partnerWithLine(3);
    const res = await act(p.cookie, p.line.id, "renew", "renew-poor");
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.message).toBe("You need 3 credits; you have 0 — buy credits");
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    expect(fake.callsOf("edit_line")).toHaveLength(0);
    expect(await t.app.db.select().from(resellerLineRenewals).where(eq(resellerLineRenewals.line_id, p.line.id))).toHaveLength(0);
  });
});

describe("a partner switches a line off and on (item 3)", () => {
  it("switches it off on the panel and on again, costing nothing, each change audited once", async () => {
    const p = await partnerWithLine(3);
    const off = await act(p.cookie, p.line.id, "switch-off");
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ status: "done", switched_off: true, username: p.line.username });
    expect(fake.callsOf("disable_line")[0].form.id).toBe(p.panelLineId);
    expect(fake.made().find((l) => String(l.id) === p.panelLineId)?.enabled).toBe(false);
    // again: already off, nothing changes
    expect((await act(p.cookie, p.line.id, "switch-off")).json().data.switched_off).toBe(true);
    const listed = await t.app.inject({ method: "GET", url: "/api/partner/lines", headers: { cookie: p.cookie } });
    expect(listed.json().data.map((l: { id: string; switched_off: boolean }) => [l.id, l.switched_off])).toEqual([[p.line.id, true]]);
    const [stored] = await t.app.db.select().from(resellerLines).where(eq(resellerLines.id, p.line.id));
    // still a line made (the owner's counts of lines keep it), only switched off
    expect(stored).toMatchObject({ status: "done", switched_off_at: expect.any(Date) });

    const on = await act(p.cookie, p.line.id, "switch-on");
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data).toMatchObject({ status: "done", switched_off: false });
    expect(fake.made().find((l) => String(l.id) === p.panelLineId)?.enabled).toBe(true);
    expect(fake.callsOf("adjust_credits")).toHaveLength(0);
    expect(partnerCredits(p.panelId)).toBe(0);
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, p.line.id));
    expect(audited.map((a) => a.action).sort()).toEqual(["line-create", "line-switch-off", "line-switch-on"]);
  });

  it("another partner's line is 404 for renew and switch-off, and the panel is not asked", async () => {
    const a = await partnerWithLine(6);
    const b = await partnerWithLine(6);
    for (const what of ["renew", "switch-off", "switch-on"] as const) {
      const res = await act(a.cookie, b.line.id, what, `steal-${what}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain("Thandi");
    }
    expect(fake.calls.filter((c) => ["edit_line", "disable_line", "enable_line", "adjust_credits"].includes(c.action))).toEqual([]);
    expect(partnerCredits(b.panelId)).toBe(3);
    expect(partnerCredits(a.panelId)).toBe(3);
  });
});
