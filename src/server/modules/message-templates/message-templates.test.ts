// Message templates: the list with defaults, an edit the next welcome uses, unknown variables
// refused by field, a preview with a real client's data (secrets never shown), back to the
// default, and a stored template that cannot render failing its one message, not its cause.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, clients, messageTemplates, outbox } from "@/server/db/schema";
import { runReminders } from "@/server/jobs/reminders";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { SECRET_PREVIEW, TEMPLATE_DEFINITIONS, TEMPLATE_KINDS, WHATSAPP_EMAIL_WORD_MESSAGE } from "@/shared/message-templates";

const DAY = 86_400_000;
let t: TestApp;
let admin: SignedIn;
let zaneleId: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100000, PUBLIC_URL: "https://shop.example.co.za" }, { seed: true });
  admin = await signInAdmin(t.app);
  const [zanele] = await t.app.db
    .insert(clients)
    .values({
      password_hash: "x",
      username: "zanele",
      full_name: "Zanele Dlamini",
      email: "zanele@example.test",
      communication_method: "email",
      status: "active",
      package_name: "3 Months",
      subscription_end: new Date("2026-11-22T10:00:00Z"),
    })
    .returning();
  zaneleId = zanele.id;
});
afterAll(async () => {
  await t?.close();
});

const list = async () =>
  (await admin.call({ method: "GET", url: "/api/admin/message-templates" })).json().data as Array<Record<string, unknown>>;
const put = (kind: string, payload: Record<string, unknown>) =>
  admin.call({ method: "PUT", url: `/api/admin/message-templates/${kind}`, payload });
const preview = (kind: string, payload: Record<string, unknown>) =>
  admin.call({ method: "POST", url: `/api/admin/message-templates/${kind}/preview`, payload });

const convertNewLead = async (name: string, email: string, whatsapp: string) => {
  const order = await t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: { name, email, whatsapp, package: "3 Months", duration: "3 Months", device: "firestick" },
  });
  expect(order.statusCode).toBe(201);
  const converted = await admin.call({ method: "POST", url: `/api/admin/leads/${order.json().id}/convert`, payload: {} });
  expect(converted.statusCode).toBe(201);
  return converted.json().client.id as string;
};

describe("/api/admin/message-templates", () => {
  it("lists every kind with its variables, at the default until the owner edits it", async () => {
    const data = await list();
    expect(data.map((d) => d.kind)).toEqual(
      expect.arrayContaining(["welcome", "credentials", "receipt", "reminder-7d", "trial-ending", "password-reset"]),
    );
    const welcome = data.find((d) => d.kind === "welcome");
    expect(welcome).toMatchObject({ label: "Welcome and portal login", is_default: true, subject: TEMPLATE_DEFINITIONS.welcome.subject });
    expect(((welcome?.variables ?? []) as { name: string }[]).map((v) => v.name)).toEqual(
      expect.arrayContaining(["name", "business", "password_step"]),
    );
  });

  it("refuses an unknown variable with a 400 naming the field, and an empty body", async () => {
    const unknown = await put("welcome", { subject: "Hi {{nickname}}", body: "Hello {{name}} {{password_step}}" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({ subject: expect.stringContaining("{{nickname}}") });
    const badBody = await put("reminder-7d", { subject: "Soon", body: "Pay here {{pay_here}}" });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().error.fields.body).toMatch(/Unknown variable \{\{pay_here\}\}/);
    const empty = await put("receipt", { subject: "Paid", body: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.body).toBe("Please enter the message");
    const noLink = await put("password-reset", { subject: "Reset", body: "Hi {{name}}, reset soon." });
    expect(noLink.json().error.fields.body).toMatch(/must include \{\{reset_link\}\}/);
    expect(await t.app.db.select().from(messageTemplates)).toEqual([]);
    expect((await admin.call({ method: "PUT", url: "/api/admin/message-templates/nope", payload: {} })).statusCode).toBe(404);
  });

  // Issue 25 ("Bad input"): every kind's subject is checked on save, and the 400 names the variable.
  it.each([...TEMPLATE_KINDS])("a %s subject with an unknown variable is a 400 naming it; nothing is saved or audited", async (kind) => {
    const body = TEMPLATE_DEFINITIONS[kind].body;
    const response = await put(kind, { subject: "{{business}}: about your {{shoe_size}}", body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ subject: expect.stringContaining("Unknown variable {{shoe_size}} in the subject") });
    expect(await t.app.db.select().from(messageTemplates).where(eq(messageTemplates.kind, kind))).toEqual([]);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "message_templates"), eq(auditLog.resource_id, kind)));
    expect(audits).toEqual([]);
  });

  // Every kind is also sent on WhatsApp, with the same words: a WhatsApp reader is never told "e-mail".
  it.each([...TEMPLATE_KINDS])(
    "a %s message that says e-mail is a 400 on the message, nothing saved or audited; the same words in the subject save",
    async (kind) => {
      const definition = TEMPLATE_DEFINITIONS[kind];
      const body = definition.body.replace("Hi {{name}},", "Hi {{name}}, please keep this e-mail.");
      const refused = await put(kind, { subject: definition.subject, body });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toEqual({ body: WHATSAPP_EMAIL_WORD_MESSAGE });
      // the draft's preview is refused the same way
      const drafted = await preview(kind, { client_id: zaneleId, subject: definition.subject, body });
      expect(drafted.statusCode).toBe(400);
      expect(drafted.json().error.fields).toEqual({ body: WHATSAPP_EMAIL_WORD_MESSAGE });
      expect(await t.app.db.select().from(messageTemplates).where(eq(messageTemplates.kind, kind))).toEqual([]);
      const audits = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, "message_templates"), eq(auditLog.resource_id, kind)));
      expect(audits).toEqual([]);
    },
  );

  it("the Refund issued template is listed with its own subject and variables, is checked like the others, and previews with a real client", async () => {
    const refund = (await list()).find((d) => d.kind === "refund-issued");
    expect(refund).toMatchObject({
      label: "Refund issued",
      is_default: true,
      subject: "{{business}}: refund of {{amount}} (credit note {{credit_note}})",
    });
    expect(((refund?.variables ?? []) as { name: string }[]).map((v) => v.name)).toEqual(
      expect.arrayContaining(["amount", "credit_note", "line_after", "credit_note_where"]),
    );
    const body = await put("refund-issued", {
      subject: "Refund {{credit_note}}",
      body: "Hi {{name}}, {{amount}} back. {{line_after}} {{password}}",
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().error.fields.body).toMatch(/Unknown variable \{\{password\}\}/);
    const drafted = await preview("refund-issued", { client_id: zaneleId });
    expect(drafted.statusCode).toBe(200);
    // Zanele has no credit note yet: an example one, and her line as it stands (her term ended on 22 Nov 2026).
    expect(drafted.json().data.subject).toMatch(/: refund of R100 \(credit note CN-000000\)$/);
    expect(drafted.json().data.body).toMatch(/^Hi Zanele,\n/);
    expect(drafted.json().data.body).toContain("Credit note CN-000000: attached to this message as a PDF.");
  });

  it("an edited welcome is what a new client's queued welcome says; saved and audited", async () => {
    const saved = await put("welcome", {
      subject: "{{business}} says hello, {{name}}",
      body: "Sawubona {{name}}!\nYour username is {{username}}.\n{{password_step}}\n\n{{sign_off}}",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ is_default: false, updated_by: admin.email });
    const clientId = await convertNewLead("Sipho Ndlovu", "sipho.templates@example.test", "082 555 0191");
    const [welcome] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "welcome"), eq(outbox.channel, "email")));
    expect(welcome.status).toBe("pending");
    expect(welcome.subject).toMatch(/ says hello, Sipho$/);
    expect(welcome.body).toMatch(
      /^Sawubona Sipho!\nYour username is \S+\.\nChoose your password here \(the link works for 7 days, once\): /,
    );
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "message_templates"), eq(auditLog.resource_id, "welcome")));
    expect(audits.map((a) => a.action)).toEqual(["create"]);
  });

  it("previews with a real client's data, the stored text or a draft, and never shows a secret", async () => {
    const stored = await preview("welcome", { client_id: zaneleId });
    expect(stored.statusCode).toBe(200);
    expect(stored.json().data).toMatchObject({ client_name: "Zanele Dlamini", subject: expect.stringMatching(/says hello, Zanele$/) });
    const reminder = await preview("reminder-7d", { client_id: zaneleId });
    expect(reminder.json().data.body).toContain("Your 3 Months with");
    expect(reminder.json().data.body).toContain("ends on 22 Nov 2026 (in 7 days).");
    expect(reminder.json().data.body).toContain("https://shop.example.co.za/client?renew=1");
    const reset = await preview("password-reset", { client_id: zaneleId, subject: "Reset", body: "Hi {{name}}: {{reset_link}}" });
    expect(reset.json().data.body).toBe(`Hi Zanele: ${SECRET_PREVIEW}`);
    expect(reset.json().data.body).not.toContain("{{secret}}");
    const bad = await preview("receipt", { client_id: zaneleId, subject: "Paid", body: "{{shoe}}" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.body).toMatch(/\{\{shoe\}\}/);
  });

  it("reset to default: the row goes, the default is back, audited", async () => {
    const reset = await admin.call({ method: "DELETE", url: "/api/admin/message-templates/welcome" });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data).toMatchObject({ is_default: true, body: TEMPLATE_DEFINITIONS.welcome.body });
    expect((await list()).find((d) => d.kind === "welcome")?.is_default).toBe(true);
    const clientId = await convertNewLead("Lerato Khumalo", "lerato.templates@example.test", "082 555 0192");
    const [welcome] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "welcome"), eq(outbox.channel, "email")));
    expect(welcome.body).toMatch(/^Hi Lerato,\n\nWelcome to /);
    const actions = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, "message_templates"));
    expect(actions.map((a) => a.action)).toEqual(["create", "delete"]);
  });

  it("a stored template that no longer renders fails its one message with the reason; the cause and the other messages go on", async () => {
    // As if written by an older version, or by hand: a variable this version does not know.
    await t.app.db.insert(messageTemplates).values({ kind: "reminder-7d", subject: "Soon", body: "Hi {{nickname}}" });
    const now = new Date();
    const [broken, fine] = await t.app.db
      .insert(clients)
      .values([
        {
          password_hash: "x",
          username: "remind-a",
          full_name: "Anele Reminder",
          email: "anele@example.test",
          communication_method: "email",
          status: "active",
          subscription_end: new Date(now.getTime() + 6 * DAY),
        },
        {
          password_hash: "x",
          username: "remind-b",
          full_name: "Bheki Reminder",
          email: "bheki@example.test",
          communication_method: "email",
          status: "active",
          subscription_end: new Date(now.getTime() + 12 * 3_600_000),
        },
      ])
      .returning();
    await runReminders(t.app, now);
    const [failed] = await t.app.db.select().from(outbox).where(eq(outbox.client_id, broken.id));
    expect(failed).toMatchObject({ kind: "reminder-7d", status: "failed" });
    expect(failed.last_error).toMatch(/Expiry reminder \(7 days\).*\{\{nickname\}\}/);
    expect(failed.body).toContain("Renew before then"); // the default text, which a retry sends
    const [sent] = await t.app.db.select().from(outbox).where(eq(outbox.client_id, fine.id));
    expect(sent).toMatchObject({ kind: "reminder-1d", status: "pending" });
  });

  it("an e-mail address in the message and 'e-mail' in the subject are fine (WhatsApp sends the text alone)", async () => {
    const body = `${TEMPLATE_DEFINITIONS["line-suspended"].body}\nWrite to accounts@email.example.co.za for a statement.`;
    const saved = await put("line-suspended", { subject: "{{business}}: your service is on hold (a copy of this e-mail)", body });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.body).toBe(body);
    const [row] = await t.app.db.select().from(messageTemplates).where(eq(messageTemplates.kind, "line-suspended"));
    expect(row.body).toBe(body);
    expect((await admin.call({ method: "DELETE", url: "/api/admin/message-templates/line-suspended" })).statusCode).toBe(200);
  });
});
