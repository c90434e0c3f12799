// Issue 46 item 7: correction and erasure requests (POPIA s24). A client asks from the portal; the
// owner's queue lists it with its due date (30 days on); the owner corrects through the client
// edit, refuses with a reason, or erases: the person's details go, the tax records stay and read
// back. Runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_COOKIE } from "@/server/auth/sessions";
import { auditLog, capturedPayments, clients, dataRequests, invoices, leads, outbox, packages, sessions } from "@/server/db/schema";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { makeClient, nextIp, PUBLIC_URL } from "@/server/modules/client/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import { DATA_REQUEST_DAYS, DATA_REQUEST_MESSAGES } from "@/shared/data-request-schemas";
import { remindOfDataRequests } from "./reminders";
import { ERASED_NAME } from "./service";

let t: TestApp;
let admin: SignedIn;
let monthId = "";
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, LOG_LEVEL: "error", SANDBOX_SECRET: "data-requests" }, { seed: true });
  admin = await signInAdmin(t.app);
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  monthId = pkg.id;
});
afterAll(async () => {
  await t?.close();
});

async function person() {
  n += 1;
  const client = await makeClient(t.app, {
    username: `subject${n}`,
    full_name: `Thandi Subject${n}`,
    email: `subject${n}@example.co.za`,
    whatsapp: `2782460${String(n).padStart(4, "0")}`,
    communication_method: "email",
    notes: "Prefers calls after five",
    status: "active",
  });
  const { cookie } = await clientSession(t.app, client.id);
  return { ...client, cookie: `${CLIENT_COOKIE}=${cookie[CLIENT_COOKIE]}`, email: `subject${n}@example.co.za` };
}

const asClient = (cookie: string, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { origin: PUBLIC_URL, cookie }, remoteAddress: nextIp() });

const ask = (cookie: string, payload: object) => asClient(cookie, "POST", "/api/client/data-requests", payload);

const queue = async () => (await admin.call({ method: "GET", url: "/api/admin/data-requests" })).json().data as Record<string, unknown>[];

const messagesTo = async (recipient: string, kind = "data-request") =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, kind), eq(outbox.recipient, recipient)));

describe("a client asks", () => {
  it("for a correction: stored with a due date 30 days on, listed in the owner's queue, and the owner is alerted", async () => {
    const p = await person();
    const before = Date.now();
    const made = await ask(p.cookie, { kind: "correction", details: "My surname is spelt wrong", correction: "Thandi Nkosi" });
    expect(made.statusCode, made.body).toBe(201);
    const request = made.json().data;
    expect(request).toMatchObject({ kind: "correction", status: "open", details: "My surname is spelt wrong", correction: "Thandi Nkosi" });
    const due = new Date(request.due_at).getTime();
    expect(due - before).toBeGreaterThanOrEqual(DATA_REQUEST_DAYS * 86_400_000 - 1000);
    expect(due - before).toBeLessThan(DATA_REQUEST_DAYS * 86_400_000 + 60_000);

    const listed = (await queue()).find((r) => r.id === request.id);
    expect(listed).toMatchObject({
      client_id: p.id,
      client_name: `Thandi Subject${n}`,
      status: "open",
      overdue: false,
      due_at: request.due_at,
    });
    const alerts = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "owner-alert"), eq(outbox.dedupe_key, `owner-alert:privacy-request:${request.id}`)));
    expect(alerts).toHaveLength(1);
    expect(alerts[0].recipient).toBe(admin.email);
    expect(alerts[0].body).toContain("/admin/privacy-requests");

    const own = await asClient(p.cookie, "GET", "/api/client/data-requests");
    expect(own.json().data.map((r: { id: string }) => r.id)).toEqual([request.id]);
  });

  it("an overdue open request is marked overdue in the queue, and the soonest due comes first", async () => {
    const p = await person();
    const made = (await ask(p.cookie, { kind: "erasure" })).json().data;
    await t.app.db
      .update(dataRequests)
      .set({ due_at: new Date(Date.now() - 86_400_000) })
      .where(eq(dataRequests.id, made.id));
    const rows = await queue();
    expect(rows[0]).toMatchObject({ id: made.id, overdue: true });
  });

  it("bad input is a 400 with a clear message on the field, and nothing is stored", async () => {
    const p = await person();
    const noKind = await ask(p.cookie, { details: "x" });
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().error.message).toBe(DATA_REQUEST_MESSAGES.kind);
    const empty = await ask(p.cookie, { kind: "correction", details: "", correction: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toMatchObject({
      details: DATA_REQUEST_MESSAGES.details,
      correction: DATA_REQUEST_MESSAGES.correction,
    });
    const long = await ask(p.cookie, { kind: "erasure", details: "x".repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.details).toBe(DATA_REQUEST_MESSAGES.tooLong);
    expect(await t.app.db.select().from(dataRequests).where(eq(dataRequests.client_id, p.id))).toHaveLength(0);
  });

  it("a second request of a kind while one is open is a 409 naming the open one", async () => {
    const p = await person();
    expect((await ask(p.cookie, { kind: "erasure" })).statusCode).toBe(201);
    const again = await ask(p.cookie, { kind: "erasure", details: "please" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/^You already asked for a deletion on .+; we will answer it by .+\.$/);
    // a correction may be asked for beside it
    expect((await ask(p.cookie, { kind: "correction", details: "Old address", correction: "New address" })).statusCode).toBe(201);
  });

  it("a suspended client can still ask for a correction or an erasure and see their requests (their data is theirs)", async () => {
    const p = await person();
    await t.app.db.update(clients).set({ status: "suspended" }).where(eq(clients.id, p.id));
    const correction = await ask(p.cookie, { kind: "correction", details: "Wrong surname", correction: "Thandi Nkosi" });
    expect(correction.statusCode, correction.body).toBe(201);
    const erasure = await ask(p.cookie, { kind: "erasure", details: "I have left" });
    expect(erasure.statusCode, erasure.body).toBe(201);
    const own = await asClient(p.cookie, "GET", "/api/client/data-requests");
    expect(own.statusCode).toBe(200);
    expect(
      own
        .json()
        .data.map((r: { kind: string }) => r.kind)
        .sort(),
    ).toEqual(["correction", "erasure"]);
    const stored = await t.app.db.select().from(dataRequests).where(eq(dataRequests.client_id, p.id));
    expect(stored.map((r) => [r.kind, r.status]).sort()).toEqual([
      ["correction", "open"],
      ["erasure", "open"],
    ]);
    // the rest of the portal still holds a suspended client back
    expect((await asClient(p.cookie, "GET", "/api/client/me")).statusCode).toBe(403);
  });

  it("another client's requests are not visible to a client; the queue is the owner's only", async () => {
    const a = await person();
    const b = await person();
    await ask(a.cookie, { kind: "correction", details: "Wrong e-mail on file", correction: "a@example.co.za" });
    const seen = await asClient(b.cookie, "GET", "/api/client/data-requests");
    expect(seen.json().data).toEqual([]);
    expect((await asClient(b.cookie, "GET", "/api/admin/data-requests")).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/client/data-requests" })).statusCode).toBe(401);
  });
});

describe("the owner answers", () => {
  it("applies a correction through the client edit (audited), the request is corrected and the client told", async () => {
    const p = await person();
    const request = (await ask(p.cookie, { kind: "correction", details: "Surname wrong", correction: "Thandi Nkosi" })).json().data;
    const bad = await admin.call({ method: "POST", url: `/api/admin/data-requests/${request.id}/correct`, payload: { changes: {} } });
    expect(bad.statusCode).toBe(400);
    const done = await admin.call({
      method: "POST",
      url: `/api/admin/data-requests/${request.id}/correct`,
      payload: { changes: { full_name: "Thandi Nkosi" }, note: "We changed your name to Thandi Nkosi." },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: "corrected", outcome: "We changed your name to Thandi Nkosi." });
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, p.id));
    expect(row.full_name).toBe("Thandi Nkosi");
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "clients"), eq(auditLog.resource_id, p.id), eq(auditLog.action, "update")));
    expect(audits).toHaveLength(1);
    const told = await messagesTo(p.email);
    expect(told).toHaveLength(1);
    expect(told[0].body).toContain("We changed your name to Thandi Nkosi.");
    const twice = await admin.call({
      method: "POST",
      url: `/api/admin/data-requests/${request.id}/refuse`,
      payload: { reason: "Too late now" },
    });
    expect(twice.statusCode).toBe(409);
  });

  it("refuses with a reason: a 400 without one, else refused and the client told the reason", async () => {
    const p = await person();
    const request = (await ask(p.cookie, { kind: "correction", details: "My package is wrong", correction: "Premium" })).json().data;
    const noReason = await admin.call({ method: "POST", url: `/api/admin/data-requests/${request.id}/refuse`, payload: { reason: " " } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe(DATA_REQUEST_MESSAGES.reason);
    const refused = await admin.call({
      method: "POST",
      url: `/api/admin/data-requests/${request.id}/refuse`,
      payload: { reason: "Your package is what you paid for on your last invoice." },
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data.status).toBe("refused");
    const told = await messagesTo(p.email);
    expect(told[0].body).toContain("because: Your package is what you paid for on your last invoice.");
    expect(told[0].body).toContain("Information Regulator");
    const own = (await asClient(p.cookie, "GET", "/api/client/data-requests")).json().data[0];
    expect(own).toMatchObject({ status: "refused", outcome: "Your package is what you paid for on your last invoice." });
  });

  it("erases: the person's details, lead rows, messages and sessions go; invoices and payments remain and read back", async () => {
    const p = await person();
    const paid = await admin.call({
      method: "POST",
      url: "/api/admin/payments",
      payload: { client_id: p.id, package_id: monthId, amount: 650 },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await t.app.db.insert(leads).values({
      form_type: "order",
      name: `Thandi Subject${n}`,
      email: p.email,
      whatsapp: "082 460 0000",
      whatsapp_digits: "27824600000",
      client_id: p.id,
      ip: "198.51.100.7",
      notes: "asked about sport",
    });
    const request = (await ask(p.cookie, { kind: "erasure", details: "I moved to another provider" })).json().data;
    const badLine = await admin.call({ method: "POST", url: `/api/admin/data-requests/${request.id}/erase`, payload: { line: "maybe" } });
    expect(badLine.statusCode).toBe(400);
    expect(badLine.json().error.fields.line).toBe(DATA_REQUEST_MESSAGES.line);

    const erased = await admin.call({ method: "POST", url: `/api/admin/data-requests/${request.id}/erase`, payload: { line: "disable" } });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data).toMatchObject({ status: "erased", client_name: ERASED_NAME });

    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, p.id));
    expect(row).toMatchObject({
      full_name: ERASED_NAME,
      email: "",
      whatsapp: "",
      notes: "",
      username: `erased-${p.id}`,
      status: "suspended",
    });
    expect(await t.app.db.select().from(sessions).where(eq(sessions.client_id, p.id))).toHaveLength(0);
    expect((await asClient(p.cookie, "GET", "/api/client/data-requests")).statusCode).toBe(401);
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.client_id, p.id));
    expect(lead).toMatchObject({ name: ERASED_NAME, email: "", whatsapp: "", ip: "", notes: "" });
    // every message to them keeps no content, but the one telling them what was erased and what is kept
    const theirs = await t.app.db.select().from(outbox).where(eq(outbox.client_id, p.id));
    const notice = theirs.filter((m) => m.kind === "data-request");
    expect(notice).toHaveLength(1);
    expect(notice[0].recipient).toBe(p.email);
    expect(notice[0].body).toContain("Tax Administration Act");
    for (const m of theirs.filter((x) => x.kind !== "data-request")) expect([m.recipient, m.body]).toEqual(["", "[erased]"]);
    const [request_] = await t.app.db.select().from(dataRequests).where(eq(dataRequests.id, request.id));
    expect(request_.details).toBe("");
    const [alert] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `owner-alert:privacy-request:${request.id}`));
    expect(`${alert.subject} ${alert.body}`).not.toContain("Subject");
    expect(alert.body).not.toContain("I moved to another provider");

    // the tax records: the payment and its invoice, amounts and the invoice's legal details as issued
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, p.id));
    expect(Number(payment.amount)).toBe(650);
    expect(payment.status).toBe("paid");
    const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.client_id, p.id));
    expect(invoice.number).toMatch(/^INV-/);
    const listed = await admin.call({ method: "GET", url: `/api/admin/payments?q=${payment.external_transaction_id}` });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((x: { id: string }) => x.id)).toContain(payment.id);

    // audited, without the erased values
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "clients"), eq(auditLog.resource_id, p.id), eq(auditLog.action, "erase")));
    expect(JSON.stringify(entry)).not.toContain(p.email);
    const anyCopy = await t.app.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.resource_id, p.id),
          sql`(${auditLog.before}::text || coalesce(${auditLog.after}::text, '')) like ${`%${p.email}%`}`,
        ),
      );
    expect(anyCopy).toHaveLength(0);
  });

  it("erasing twice is a 409, and a correction cannot be erased", async () => {
    const p = await person();
    const erasure = (await ask(p.cookie, { kind: "erasure" })).json().data;
    const correction = (await ask(p.cookie, { kind: "correction", details: "Wrong number", correction: "082 000 0000" })).json().data;
    expect(
      (await admin.call({ method: "POST", url: `/api/admin/data-requests/${correction.id}/erase`, payload: { line: "keep" } })).statusCode,
    ).toBe(409);
    expect(
      (await admin.call({ method: "POST", url: `/api/admin/data-requests/${erasure.id}/erase`, payload: { line: "keep" } })).statusCode,
    ).toBe(200);
    expect(
      (await admin.call({ method: "POST", url: `/api/admin/data-requests/${erasure.id}/erase`, payload: { line: "keep" } })).statusCode,
    ).toBe(409);
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, p.id));
    expect(row.status).toBe("active");
  });
});

describe("under the paths issue 46 named", () => {
  it("POST /api/client/erasure-request and /correction-request store the same requests; /complete erases (line off) or corrects", async () => {
    const p = await person();
    const erasure = await asClient(p.cookie, "POST", "/api/client/erasure-request", { details: "Leaving" });
    expect(erasure.statusCode, erasure.body).toBe(201);
    expect(erasure.json().data).toMatchObject({ kind: "erasure", details: "Leaving", status: "open" });
    const again = await asClient(p.cookie, "POST", "/api/client/erasure-request", {});
    expect(again.statusCode).toBe(409);
    const badCorrection = await asClient(p.cookie, "POST", "/api/client/correction-request", { details: "x" });
    expect(badCorrection.statusCode).toBe(400);
    expect(badCorrection.json().error.fields.details).toBe(DATA_REQUEST_MESSAGES.details);
    const correction = await asClient(p.cookie, "POST", "/api/client/correction-request", {
      details: "My surname is misspelt",
      correction: "Subjekt",
      kind: "erasure", // the path decides the kind
    });
    expect(correction.statusCode, correction.body).toBe(201);
    expect(correction.json().data).toMatchObject({ kind: "correction", correction: "Subjekt" });
    const listed = (await asClient(p.cookie, "GET", "/api/client/data-requests")).json().data as { kind: string }[];
    expect(listed.map((r) => r.kind).sort()).toEqual(["correction", "erasure"]);

    const noChanges = await admin.call({
      method: "POST",
      url: `/api/admin/data-requests/${correction.json().data.id}/complete`,
      payload: {},
    });
    expect(noChanges.statusCode).toBe(400);
    const corrected = await admin.call({
      method: "POST",
      url: `/api/admin/data-requests/${correction.json().data.id}/complete`,
      payload: { changes: { full_name: "Thandi Subjekt" }, note: "" },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().data.status).toBe("corrected");
    expect((await t.app.db.select().from(clients).where(eq(clients.id, p.id)))[0].full_name).toBe("Thandi Subjekt");

    const completed = await admin.call({ method: "POST", url: `/api/admin/data-requests/${erasure.json().data.id}/complete` });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().data).toMatchObject({ status: "erased", client_name: ERASED_NAME });
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, p.id));
    expect(row).toMatchObject({ full_name: ERASED_NAME, email: "", status: "suspended" });
    const twice = await admin.call({ method: "POST", url: `/api/admin/data-requests/${erasure.json().data.id}/complete` });
    expect(twice.statusCode).toBe(409);
    const unknown = await admin.call({ method: "POST", url: "/api/admin/data-requests/00000000-0000-4000-8000-000000000000/complete" });
    expect(unknown.statusCode).toBe(404);
  });
});

describe("reminders", () => {
  it("alert the owner once a week before the due date and once when overdue, however often the job runs", async () => {
    const p = await person();
    const request = (await ask(p.cookie, { kind: "erasure", details: "Please remove me" })).json().data;
    const reminders = () =>
      t.app.db
        .select({ key: outbox.dedupe_key })
        .from(outbox)
        .where(and(eq(outbox.kind, "owner-alert"), sql`${outbox.dedupe_key} like ${`owner-alert:privacy-request:${request.id}:%`}`));
    await remindOfDataRequests(t.app);
    expect(await reminders()).toEqual([]);
    const inSevenDays = new Date(Date.now() + 6 * 86_400_000);
    await t.app.db.update(dataRequests).set({ due_at: inSevenDays }).where(eq(dataRequests.id, request.id));
    await remindOfDataRequests(t.app);
    await remindOfDataRequests(t.app);
    expect((await reminders()).map((r) => r.key)).toEqual([`owner-alert:privacy-request:${request.id}:7d`]);
    await t.app.db
      .update(dataRequests)
      .set({ due_at: new Date(Date.now() - 1000) })
      .where(eq(dataRequests.id, request.id));
    await remindOfDataRequests(t.app);
    await remindOfDataRequests(t.app);
    expect((await reminders()).map((r) => r.key).sort()).toEqual([
      `owner-alert:privacy-request:${request.id}:7d`,
      `owner-alert:privacy-request:${request.id}:overdue`,
    ]);
    // an answered request is reminded of no more
    await admin.call({ method: "POST", url: `/api/admin/data-requests/${request.id}/erase`, payload: { line: "keep" } });
    const before = (await reminders()).length;
    await remindOfDataRequests(t.app, new Date(Date.now() + 40 * 86_400_000));
    expect(await reminders()).toHaveLength(before);
  });
});
