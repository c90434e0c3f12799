import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/rows";
import { leads, outbox } from "@/server/db/schema";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import { INTEREST_REQUIRED_MESSAGE } from "@/shared/schemas";
import type { InterestSubmitted } from "./routes";

let t: TestApp;
let n = 0;

function interest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  n += 1;
  return {
    firstName: "Lerato",
    lastName: `Nkosi ${n}`,
    email: `lerato${n}@example.co.za`,
    whatsapp: `+27 84 555 ${String(1000 + n)}`,
    communicationMethod: "whatsapp",
    packageName: "Month to Month",
    packagePrice: 650,
    duration: "1 Month",
    marketingOptIn: false,
    ...overrides,
  };
}

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/interest",
    payload: JSON.stringify(payload),
    headers: { "content-type": "application/json", ...headers },
  });
const leadById = async (id: string) => (await t.app.db.select().from(leads).where(eq(leads.id, id)))[0];
/** What the submission queued (not the e-mail copies the outbox adds to WhatsApp without the Cloud API). */
const messagesOf = (id: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.lead_id, id), sql`coalesce(${outbox.dedupe_key}, '') not like '%:email-copy'`))
    .orderBy(outbox.kind);
const countLeads = async () => Number((await queryRows<{ n: number }>(t.app.db, sql`SELECT count(*)::int AS n FROM leads`))[0].n);

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
  // the shop's first admin: the alerts e-mail, where the business's notes go
  await createAdmin(t.app, "owner@example.co.za");
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/interest: validation", () => {
  it("answers the spec's 'Please fill in all required fields.' naming every missing field", async () => {
    const before = await countLeads();
    const res = await post({ communicationMethod: "email" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: "validation",
        message: INTEREST_REQUIRED_MESSAGE,
        fields: {
          firstName: INTEREST_REQUIRED_MESSAGE,
          lastName: INTEREST_REQUIRED_MESSAGE,
          email: INTEREST_REQUIRED_MESSAGE,
          whatsapp: INTEREST_REQUIRED_MESSAGE,
        },
      },
    });
    expect(await countLeads()).toBe(before);
  });

  it("names only the fields that are missing (blank counts as missing)", async () => {
    const res = await post(interest({ lastName: "   ", whatsapp: undefined }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "validation",
      message: INTEREST_REQUIRED_MESSAGE,
      fields: { lastName: INTEREST_REQUIRED_MESSAGE, whatsapp: INTEREST_REQUIRED_MESSAGE },
    });
  });

  it("refuses a malformed e-mail address with its own clear message", async () => {
    const res = await post(interest({ email: "lerato.example.co.za" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "validation",
      message: "Please enter a valid email address",
      fields: { email: "Please enter a valid email address" },
    });
  });

  it("refuses an unknown contact method", async () => {
    const res = await post(interest({ communicationMethod: "pigeon" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ communicationMethod: "Choose WhatsApp or email" });
  });
});

describe("POST /api/interest: saving and replying", () => {
  it("saves an 'interest' lead (first + last name) and answers 201 {success, id}", async () => {
    const body = interest({ marketingOptIn: true });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const answer = res.json() as InterestSubmitted;
    expect(answer).toEqual({ success: true, id: expect.any(String) });
    const lead = await leadById(answer.id);
    expect(lead).toMatchObject({
      form_type: "interest",
      name: `Lerato ${body.lastName}`,
      email: body.email,
      whatsapp_digits: `2784555${String(body.whatsapp).slice(-4)}`,
      package_name: "Month to Month",
      package_price: "650",
      duration: "1 Month",
      communication_method: "whatsapp",
      marketing_opt_in: true,
      ip: "127.0.0.1",
    });
    expect(lead.payload).toEqual(body);
    const [business, customer] = await messagesOf(answer.id);
    expect(business.body).toContain("Marketing opt-in: Yes, given ");
    // POPIA: a way to withdraw marketing consent, through a person rather than the no-reply sender.
    expect(customer.body).toContain("To stop them at any time, tell us on WhatsApp or at support@streamdesk.co.za.");
  });

  it("replies on WhatsApp with the payment next step, and tells the business by e-mail", async () => {
    const body = interest();
    const { id } = (await post(body)).json() as InterestSubmitted;
    const lead = await leadById(id);
    const [business, customer] = await messagesOf(id);

    expect(customer).toMatchObject({ channel: "whatsapp", recipient: lead.whatsapp_digits, kind: "interest-confirmation" });
    expect(customer.body).toContain("Hi Lerato,");
    expect(customer.body).toContain("Month to Month (1 Month, R650)");
    expect(customer.body).toContain("We'll contact you on WhatsApp");
    expect(customer.body).toContain("payment details");
    expect(customer.body).not.toContain("free 24-hour trial");
    expect(customer.body).toMatch(/— StreamDesk\nNeed a person\?/);

    expect(business).toMatchObject({ channel: "email", recipient: "owner@example.co.za", kind: "interest" });
    expect(business.subject).toBe(`New interest: ${lead.name} - Month to Month`);
    for (const part of [
      `Name: ${lead.name}`,
      `E-mail: ${body.email}`,
      "Preferred contact: WhatsApp",
      "Price: R650",
      "Duration: 1 Month",
      "Marketing opt-in: No",
      "IP address: 127.0.0.1",
      "Send them the payment details.",
    ]) {
      expect(business.body).toContain(part);
    }
  });

  it("replies by e-mail about setting up the free trial when the price is FREE", async () => {
    const body = interest({ communicationMethod: "email", packageName: "Free Trial", packagePrice: "FREE", duration: "24 Hours" });
    const { id } = (await post(body)).json() as InterestSubmitted;
    const [business, customer] = await messagesOf(id);
    expect(customer).toMatchObject({ channel: "email", recipient: body.email, subject: "Thanks for your interest in StreamDesk" });
    expect(customer.body).toContain("Free Trial (24 Hours, FREE)");
    expect(customer.body).toContain("We'll contact you by e-mail");
    expect(customer.body).toContain("to set up your free 24-hour trial");
    expect(business.body).toContain("They want the free trial");
  });

  it("answers a retry with the same Idempotency-Key with the saved lead (200), saving one", async () => {
    const body = interest();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body, { "idempotency-key": "interest-retry" })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    const saved = await t.app.db.select().from(leads).where(eq(leads.idempotency_key, "interest-retry"));
    expect(saved).toHaveLength(1);
    expect(await messagesOf(saved[0].id)).toHaveLength(2);
  });

  it("refuses a foreign Origin (CSRF)", async () => {
    const res = await post(interest(), { origin: "https://evil.example" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
  });
});
