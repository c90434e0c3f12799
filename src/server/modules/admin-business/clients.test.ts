// Admin clients: create (no password answered: a welcome with a link to choose one is queued;
// pending or on a trial: never a free term) with
// validation errors, list filters, the detail page's data with the lifecycle history, edit
// (never the status or term), suspend (ends sessions) and reactivate, complimentary time only
// with a reason, password reset (a link queued, never a password shown), delete (payments stay)
// — and an audit entry for every write.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/server/auth/passwords";
import { auditLog, capturedPayments, clients, contentRequests, outbox, packages, sessions } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { createTestApp, type TestApp } from "@/server/testing";
import { addMonths } from "@/shared/dates";
import { clientSession, type SignedIn, signInAdmin } from "./test-admin";

let t: TestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
});

const create = (payload: Record<string, unknown>) => admin.call({ method: "POST", url: "/api/admin/clients", payload });
const actionsFor = async (id: string) =>
  (
    await t.app.db
      .select({ action: auditLog.action, admin_id: auditLog.admin_id })
      .from(auditLog)
      .where(and(eq(auditLog.resource, "clients"), eq(auditLog.resource_id, id)))
      .orderBy(auditLog.created_at)
  ).map((e) => {
    expect(e.admin_id).toBe(admin.adminId);
    return e.action;
  });
/** The client's queued messages of one kind, each with its secret link opened. */
const queued = async (clientId: string, kind: string) => {
  const rows = await t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, kind)))
    .orderBy(outbox.channel);
  return Promise.all(rows.map(async (row) => ({ ...row, link: row.secret_enc ? await open(t.app.db, row.secret_enc) : null })));
};
const tokenOf = (link: string | null) => new URL(link ?? "http://x/").searchParams.get("token") ?? "";
const choosePassword = (token: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/client/password-reset/confirm", payload: { token, password } });
const sessionsOf = (clientId: string) => t.app.db.select().from(sessions).where(eq(sessions.client_id, clientId));

describe("creating clients", () => {
  it("answers 400 with a message per field for bad input", async () => {
    const response = await create({
      full_name: "  ",
      email: "not-an-email",
      whatsapp: "12",
      start: "gold",
      device: "toaster",
      line_portal_url: "javascript:alert(1)",
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe("validation");
    expect(error.fields).toMatchObject({
      full_name: "Please enter the client's full name",
      email: "Please enter a valid email address",
      whatsapp: "Please enter a valid WhatsApp number",
      device: "Please choose a device from the list",
      line_portal_url: "Line portal URL must start with http:// or https://",
    });
    expect(error.fields.start).toBe("A new client starts pending (waiting for payment) or on a free trial");
  });

  it("needs an address on the chosen channel and an existing package", async () => {
    const noEmail = await create({ full_name: "Sipho Ndlovu", whatsapp: "082 100 2000", communication_method: "email" });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.fields.email).toBe("Add an e-mail address to reach this client by e-mail");
    const noPackage = await create({
      full_name: "Sipho Ndlovu",
      whatsapp: "082 100 2000",
      package_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(noPackage.statusCode).toBe(400);
    expect(noPackage.json().error.fields.package_id).toBe("That package does not exist.");
    expect(await t.app.db.select().from(clients)).toHaveLength(0);
  });

  it("creates a pending client (no term until they pay) with a derived username: no password answered, one welcome with a set-password link queued", async () => {
    // "New client" with the defaults used to be Active with no end date: a term nobody paid for
    // that never expired. A status or dates in the body are not the form's to set.
    const response = await create({
      full_name: "Sipho Ndlovu",
      whatsapp: "082 100 2000",
      email: "sipho@example.co.za",
      package_id: pkgId["6 Months"],
      status: "active",
      subscription_start: "2026-03-15T09:00:00+02:00",
      subscription_end: "2027-03-15T09:00:00+02:00",
      line_username: "sipho123",
      line_password: "line-secret",
      line_portal_url: "http://line.example.net:8080",
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).not.toHaveProperty("password");
    const { client } = body;
    // Where the link went, masked: their WhatsApp and (they have one) their e-mail.
    expect(body.queued_to).toEqual([
      { channel: "whatsapp", hint: "ending 2000" },
      { channel: "email", hint: "s***@example.co.za" },
    ]);
    expect(client).toMatchObject({
      username: "sipho.n",
      whatsapp: "27821002000",
      status: "pending",
      package_name: "6 Months",
      subscription_start: null,
      subscription_end: null,
      line_password: "line-secret",
    });
    expect(client.password_hash).toBeUndefined();
    expect(await actionsFor(client.id)).toEqual(["create"]);

    // The welcome, as a paid new account gets it: once per channel, the link encrypted, never in the body.
    const welcome = await queued(client.id, "welcome");
    expect(welcome.map((m) => `${m.channel}:${m.recipient}`)).toEqual(["email:sipho@example.co.za", "whatsapp:27821002000"]);
    for (const message of welcome) {
      expect(message.dedupe_key).toBe(`welcome:${client.id}:${message.channel}`);
      expect(message.body).toContain("Choose your password here (the link works for 7 days, once)");
      expect(message.body).not.toContain("comes separately");
      expect(message.body).not.toContain(message.link);
      expect(message.link).toMatch(/\/client-password-reset\?token=[A-Za-z0-9_-]{43}$/);
    }
    expect(welcome[0].link).toBe(welcome[1].link);
    // The link opens the account: they choose a password and sign in with it.
    expect((await choosePassword(tokenOf(welcome[0].link), "kite-Maple-42-river")).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    expect(await verifyPassword("kite-Maple-42-river", row.password_hash)).toBe(true);
    // The audit log never holds the line password or the hash.
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, client.id));
    expect(entry.after).toMatchObject({ password_hash: "[hidden]", line_password: "[hidden]" });

    const taken = await create({ username: "SIPHO.N", full_name: "Another Sipho", whatsapp: "0821002001" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.username).toBe("That username is taken. Choose another.");
  });
});

describe("a client's life", () => {
  let id: string;
  let start: string;
  let end: string;

  beforeAll(async () => {
    const response = await create({
      username: "naledi",
      full_name: "Naledi Khoza",
      email: "naledi@example.co.za",
      whatsapp: "083 200 3000",
      communication_method: "email",
      package_id: pkgId["Month to Month"],
      start: "trial",
    });
    expect(response.statusCode).toBe(201);
    ({ id, subscription_start: start, subscription_end: end } = response.json().client);
    expect((Date.parse(end) - Date.parse(start)) / 3_600_000).toBe(24);
  });

  it("lists with search, status, package and expiring filters, never with password hashes", async () => {
    const list = async (query: string) => {
      const response = await admin.call({ method: "GET", url: `/api/admin/clients?${query}` });
      expect(response.statusCode).toBe(200);
      return response.json() as { data: { username: string; password_hash?: string }[]; total: number };
    };
    const all = await list("");
    expect(all.total).toBe(2);
    expect(all.data.map((c) => c.username)).toEqual(["naledi", "sipho.n"]);
    expect(all.data.every((c) => !("password_hash" in c))).toBe(true);
    expect((await list("q=KHOZA")).data.map((c) => c.username)).toEqual(["naledi"]);
    expect((await list("q=083%20200")).data.map((c) => c.username)).toEqual(["naledi"]);
    expect((await list("status=trial")).data.map((c) => c.username)).toEqual(["naledi"]);
    expect((await list(`package=${pkgId["6 Months"]}`)).data.map((c) => c.username)).toEqual(["sipho.n"]);
    expect((await list("package=month%20to%20month")).data.map((c) => c.username)).toEqual(["naledi"]);
    expect((await list("status=pending")).data.map((c) => c.username)).toEqual(["sipho.n"]);
    // The trial ends within a day, but a trial is a trial, not an expiring subscription; Sipho has no term.
    expect((await list("expiring=7")).data.map((c) => c.username)).toEqual([]);
    expect((await list("sort=username&dir=asc")).data.map((c) => c.username)).toEqual(["naledi", "sipho.n"]);
    const bad = await admin.call({ method: "GET", url: "/api/admin/clients?expiring=0" });
    expect(bad.statusCode).toBe(400);
  });

  it("edits details, line details and notes", async () => {
    const response = await admin.call({
      method: "PATCH",
      url: `/api/admin/clients/${id}`,
      payload: { notes: "Prefers calls after 5pm", line_username: "naledi-line", whatsapp: "+27 83 200 3001", marketing_opt_in: true },
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({
      notes: "Prefers calls after 5pm",
      line_username: "naledi-line",
      whatsapp: "27832003001",
      marketing_opt_in: true,
    });
    expect(data.marketing_opt_in_at).not.toBeNull();
    expect(data.password_hash).toBeUndefined();
    const invalid = await admin.call({ method: "PATCH", url: `/api/admin/clients/${id}`, payload: { email: "" } });
    // Their channel is e-mail: removing the address would leave no way to reach them.
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.email).toBe("Add an e-mail address to reach this client by e-mail");
    const nothing = await admin.call({ method: "PATCH", url: `/api/admin/clients/${id}`, payload: {} });
    expect(nothing.statusCode).toBe(400);
  });

  it("suspends (ending their portal sessions) and reactivates back to trial", async () => {
    await clientSession(t.app, id);
    expect(await sessionsOf(id)).toHaveLength(1);
    const suspended = await admin.call({ method: "POST", url: `/api/admin/clients/${id}/suspend` });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().data.status).toBe("suspended");
    expect(await sessionsOf(id)).toHaveLength(0);

    const twice = await admin.call({ method: "POST", url: `/api/admin/clients/${id}/suspend` });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe("This client is already suspended.");

    const reactivated = await admin.call({ method: "POST", url: `/api/admin/clients/${id}/reactivate` });
    expect(reactivated.statusCode).toBe(200);
    expect(reactivated.json().data.status).toBe("trial");
    const again = await admin.call({ method: "POST", url: `/api/admin/clients/${id}/reactivate` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("This client is not suspended.");
  });

  it("gives complimentary time only with a reason: added to the running term, audited, once per Idempotency-Key", async () => {
    const grant = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      admin.call({ method: "POST", url: `/api/admin/clients/${id}/grant`, payload, headers });
    const noReason = await grant({ months: 3 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe("Please give the reason for the complimentary time");
    const nothing = await grant({ months: 0, days: 0, reason: "Goodwill" });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.fields.days).toBe("Grant at least one day or one month");
    const negative = await grant({ days: -3, reason: "Goodwill" });
    expect(negative.statusCode).toBe(400);

    const response = await grant({ months: 3, reason: "Three months' thanks for the referral" });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.status).toBe("active");
    // The trial's remaining hours are kept: three months from the trial's end.
    expect(data.subscription_end).toBe(addMonths(end, 3).toISOString());
    const headers = { "idempotency-key": "grant-week-1" };
    const week = await grant({ days: 7, reason: "Outage on 20 Nov" }, headers);
    const retried = await grant({ days: 7, reason: "Outage on 20 Nov" }, headers);
    const expected = new Date(addMonths(end, 3).getTime() + 7 * 86_400_000).toISOString();
    expect(week.json().data.subscription_end).toBe(expected);
    expect(retried.json().data.subscription_end).toBe(expected);

    // The free 'extend' of old is gone: time comes from money or a reasoned grant.
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${id}/extend`, payload: {} })).statusCode).toBe(404);
  });

  it("resets the password: no password answered, a reset link queued on their channels, the old password and every session end", async () => {
    const [before] = await t.app.db.select().from(clients).where(eq(clients.id, id));
    await clientSession(t.app, id);
    await clientSession(t.app, id);
    const response = await admin.call({ method: "POST", url: `/api/admin/clients/${id}/reset-password` });
    expect(response.statusCode).toBe(200);
    // Their chosen channel is e-mail: the link goes there.
    expect(response.json()).toEqual({ queued_to: [{ channel: "email", hint: "n***@example.co.za" }] });
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, id));
    expect(row.password_hash).not.toBe(before.password_hash);
    expect(await sessionsOf(id)).toHaveLength(0);
    const reset = await queued(id, "password-reset");
    expect(reset.map((m) => `${m.channel}:${m.recipient}`)).toEqual(["email:naledi@example.co.za"]);
    expect(reset.every((m) => m.link && !m.body.includes(m.link))).toBe(true);
    expect((await choosePassword(tokenOf(reset[0].link), "new-Orchid-77-stone")).statusCode).toBe(200);
    const [chosen] = await t.app.db.select().from(clients).where(eq(clients.id, id));
    expect(await verifyPassword("new-Orchid-77-stone", chosen.password_hash)).toBe(true);
  });

  it("shows the detail page's data: the client, payments, content requests, messages and notes", async () => {
    await t.app.db.insert(capturedPayments).values({
      provider: "manual",
      external_transaction_id: "DETAIL-1",
      amount: 650,
      package_name: "Month to Month",
      client_id: id,
      status: "paid",
      paid_at: new Date(),
    });
    await t.app.db.insert(contentRequests).values({ client_id: id, title: "SuperSport Rugby", request_type: "channel" });
    await t.app.db
      .insert(outbox)
      .values({ channel: "email", recipient: "naledi@example.co.za", body: "Hello", kind: "test", client_id: id });
    const response = await admin.call({ method: "GET", url: `/api/admin/clients/${id}` });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({ id, username: "naledi", notes: "Prefers calls after 5pm" });
    expect(data.password_hash).toBeUndefined();
    expect(data.payments.map((p: { external_transaction_id: string }) => p.external_transaction_id)).toEqual(["DETAIL-1"]);
    expect(data.payments[0].raw_payload).toBeUndefined();
    expect(data.content_requests.map((r: { title: string }) => r.title)).toEqual(["SuperSport Rugby"]);
    expect(data.messages.map((m: { kind: string }) => m.kind)).toContain("test");
    expect(data.leads).toEqual([]);
    // Every change of status or term, newest first, with who and why.
    expect(data.lifecycle.map((e: { cause: string }) => e.cause)).toEqual([
      "complimentary-grant",
      "complimentary-grant",
      "admin-reactivate",
      "admin-suspend",
      "trial-started",
    ]);
    expect(data.lifecycle[0]).toMatchObject({
      label: "Complimentary time granted",
      reason: "Outage on 20 Nov",
      actor: admin.email,
      status_before: "active",
      status_after: "active",
    });
    expect((await admin.call({ method: "GET", url: "/api/admin/clients/not-a-uuid" })).statusCode).toBe(400);
  });

  it("deletes the client and their sessions; their payments stay with no client", async () => {
    await clientSession(t.app, id);
    const response = await admin.call({ method: "DELETE", url: `/api/admin/clients/${id}` });
    expect(response.statusCode).toBe(204);
    expect(await t.app.db.select().from(clients).where(eq(clients.id, id))).toHaveLength(0);
    expect(await sessionsOf(id)).toHaveLength(0);
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, "DETAIL-1"));
    expect(payment.client_id).toBeNull();
    expect((await admin.call({ method: "DELETE", url: `/api/admin/clients/${id}` })).statusCode).toBe(404);
    const actions = await actionsFor(id);
    // The account and its trial are one transaction (one timestamp).
    expect(actions.slice(0, 2).sort()).toEqual(["create", "trial-started"]);
    expect(actions.slice(2)).toEqual([
      "update",
      "admin-suspend",
      "admin-reactivate",
      "complimentary-grant",
      "complimentary-grant",
      "reset-password",
      "delete",
    ]);
  });
});
