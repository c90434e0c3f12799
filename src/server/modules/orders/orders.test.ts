import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/server/db/rows";
import { leads, outbox, trialBlackoutDays } from "@/server/db/schema";
import { uniqueViolation } from "@/server/lib/errors";
import { PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { TRIAL_AGAIN_FORM, TRIAL_AGAIN_KIND } from "@/server/modules/trials/again";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { saDay } from "@/shared/dates";
import { OTHER_PLATFORM_MESSAGE } from "@/shared/schemas";
import { leadReference } from "./messages";
import type { OrderSubmitted } from "./routes";
import { KEY_REUSED_MESSAGE, TRIAL_UNAVAILABLE_MESSAGE } from "./service";
import { paidOrder } from "./test-helpers";

// Seeded branding (src/server/db/seed-content.ts).
const BUSINESS_WHATSAPP = "27821234567";
/** The shop's first admin: the alerts e-mail, where the business's notes go (lib/owner-alerts.ts). */
const OWNER_EMAIL = "owner@example.co.za";

let t: TestApp;
let n = 0;

/** A valid paid order from a person nobody has used yet. */
function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  n += 1;
  return paidOrder({ name: `Thandi Mokoena ${n}`, email: `thandi${n}@example.co.za`, whatsapp: `083 555 ${String(1000 + n)}` }, overrides);
}

const post = (payload: unknown, headers: Record<string, string> = {}, app = t.app) =>
  app.inject({
    method: "POST",
    url: "/api/orders",
    payload: JSON.stringify(payload),
    headers: { "content-type": "application/json", ...headers },
  });

const leadById = async (id: string) => (await t.app.db.select().from(leads).where(eq(leads.id, id)))[0];
const messagesOf = (id: string) => t.app.db.select().from(outbox).where(eq(outbox.lead_id, id)).orderBy(outbox.kind);
const countLeads = async (where = sql`true`) =>
  Number((await queryRows<{ n: number }>(t.app.db, sql`SELECT count(*)::int AS n FROM leads WHERE ${where}`))[0].n);
const whatsappText = (url: string) => decodeURIComponent(new URL(url).searchParams.get("text") ?? "");

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
  await createAdmin(t.app, OWNER_EMAIL);
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/orders: a paid order", () => {
  it("saves the lead with the whole submission and answers 201 {success, id, whatsappUrl}", async () => {
    const body: Record<string, unknown> = { ...order({ marketingOptIn: true, whatsapp: "+27 (83) 555-0101" }), referrer: "facebook" };
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const answer = res.json() as OrderSubmitted;
    expect(answer).toEqual({ success: true, id: expect.any(String), whatsappUrl: expect.any(String) });

    const lead = await leadById(answer.id);
    expect(lead).toMatchObject({
      form_type: "order",
      name: body.name,
      email: body.email,
      whatsapp: "27835550101",
      whatsapp_digits: "27835550101",
      package_name: "3 Months",
      duration: "3 Months",
      device: "android",
      internet_platform: "fibre",
      internet_speed: "50 Mbps",
      marketing_opt_in: true,
      status: "new",
      ip: "127.0.0.1",
      idempotency_key: null,
    });
    // The payload keeps the form's own fields as received; a field the form does not have is not stored.
    const { referrer: _dropped, ...known } = body;
    expect(lead.payload).toEqual(known);
  });

  it("stores only the form's known fields: ~256 KB of made-up fields are dropped, the order still saved", async () => {
    const junk = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`extra${i}`, "x".repeat(3900)]));
    const body = { ...order({ immediateStartConsent: true, shownPrice: "R1,450" }), ...junk };
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const lead = await leadById(res.json().id);
    expect(Object.keys(lead.payload).some((key) => key.startsWith("extra"))).toBe(false);
    expect(lead.payload).toMatchObject({ immediateStartConsent: true, shownPrice: "R1,450", name: body.name });
    expect(JSON.stringify(lead.payload).length).toBeLessThan(2000);
  });

  it("checks the order form's own extras: consent must be true or false, the shown price short text", async () => {
    const consent = await post(order({ immediateStartConsent: "yes" }));
    expect(consent.statusCode).toBe(400);
    expect(consent.json().error.fields.immediateStartConsent).toBe("Immediate start consent must be true or false");
    const price = await post(order({ shownPrice: "R".repeat(41) }));
    expect(price.statusCode).toBe(400);
    expect(Object.keys(price.json().error.fields)).toEqual(["shownPrice"]);
  });

  it("opens WhatsApp to the business with the order prefilled, reference included", async () => {
    const res = await post(order());
    const { id, whatsappUrl } = res.json() as OrderSubmitted;
    expect(whatsappUrl.startsWith(`https://wa.me/${BUSINESS_WHATSAPP}?text=`)).toBe(true);
    const text = whatsappText(whatsappUrl);
    const lead = await leadById(id);
    expect(text).toContain("Hi StreamDesk, I've just placed an order");
    for (const line of [
      `Name: ${lead.name}`,
      "Package: 3 Months",
      "Duration: 3 Months",
      "Device: Android Phone/Tablet",
      "Internet: Fibre",
      "Speed: 50 Mbps",
      `Reference: ${leadReference({ id })}`,
    ]) {
      expect(text).toContain(line);
    }
  });

  it("queues, in the same transaction, a note to the business and a confirmation to the customer", async () => {
    const body = order({ marketingOptIn: true, device: "firestick", internetPlatform: "other", otherPlatform: "Starlink" });
    const { id } = (await post(body)).json() as OrderSubmitted;
    const [business, customer] = await messagesOf(id);

    expect(business).toMatchObject({ channel: "email", recipient: OWNER_EMAIL, kind: "order", status: "pending" });
    expect(business.subject).toBe(`New order: ${body.name} - 3 Months, 3 Months`);
    for (const part of [
      `Reference: ${leadReference({ id })} (lead ${id})`,
      `Full name: ${body.name}`,
      `E-mail: ${body.email}`,
      `WhatsApp: +27 83 555 ${String(body.whatsapp).slice(-4)} (typed as ${body.whatsapp})`,
      "Package: 3 Months",
      "Duration: 3 Months",
      "Device: Amazon Fire Stick (firestick)",
      "Internet platform: Other",
      "Other platform: Starlink",
      "Internet speed: 50 Mbps",
      "Marketing opt-in: Yes, given ",
      "IP address: 127.0.0.1",
    ]) {
      expect(business.body).toContain(part);
    }

    expect(customer).toMatchObject({ channel: "email", recipient: body.email, kind: "order-confirmation", status: "pending" });
    expect(customer.subject).toBe("Your StreamDesk order has been received");
    expect(customer.body).toContain(`Hi ${String(body.name).split(" ")[0]},`);
    expect(customer.body).toContain("- Package: 3 Months");
    expect(customer.body).toContain("- Internet: Other: Starlink");
    expect(customer.body).toContain("What happens next:");
    expect(customer.body).toContain("secure payment link");
    expect(customer.body).toContain("To stop them at any time, tell us on WhatsApp or at support@streamdesk.co.za.");
    // docs/architecture.md, "House style": ends naming the business and a way to reach a person.
    expect(customer.body).toMatch(/— StreamDesk\nNeed a person\? WhatsApp \+27 82 123 4567 or support@streamdesk\.co\.za \(.+\)\.$/);
  });

  it("leaves the consent line out for a customer who did not opt in", async () => {
    const { id } = (await post(order({ marketingOptIn: false }))).json() as OrderSubmitted;
    const [business, customer] = await messagesOf(id);
    expect(business.body).toContain("Marketing opt-in: No");
    expect(customer.body).not.toContain("To stop them");
  });
});

describe("POST /api/orders: the price the business reads", () => {
  const businessNote = async (id: string) => (await messagesOf(id)).find((m) => m.kind === "order");

  it("prices the chosen package from the catalogue, special included, and keeps it on the lead", async () => {
    // Seeded: 3 Months R1,650, on special at R1,450; Month to Month R650.
    const special = (await post({ ...order(), shownPrice: "R1,450" })).json() as OrderSubmitted;
    expect((await leadById(special.id)).package_price).toBe("1450");
    expect((await businessNote(special.id))?.body).toContain("Price: R1,450\n");

    const monthly = (await post(order({ package: "Month to Month", duration: "1 Month" }))).json() as OrderSubmitted;
    expect((await leadById(monthly.id)).package_price).toBe("650");
    expect((await businessNote(monthly.id))?.body).toContain("Price: R650");
  });

  it("prices a duration without a package by the package of that length, and says what the page showed when it differs", async () => {
    const { id } = (await post({ ...order({ package: "", duration: "6 Months" }), shownPrice: "R2,999" })).json() as OrderSubmitted;
    expect((await leadById(id)).package_price).toBe("3150");
    expect((await businessNote(id))?.body).toContain("Price: R3,150 (the website showed R2,999)");
  });

  it("says FREE for a trial, and 'not given' for a package the catalogue does not sell", async () => {
    const trial = (await post(order({ package: "", duration: "free-trial", formType: "free-trial" }))).json() as OrderSubmitted;
    expect((await leadById(trial.id)).package_price).toBe("FREE");
    expect((await businessNote(trial.id))?.body).toContain("Price: FREE");

    const unknown = (await post(order({ package: "Lifetime Deal", duration: "" }))).json() as OrderSubmitted;
    expect((await leadById(unknown.id)).package_price).toBe("");
    expect((await businessNote(unknown.id))?.body).toContain("Price: not given");
  });
});

describe("POST /api/orders: validation (the shared order form schema)", () => {
  it("requires full name, e-mail and WhatsApp number, naming each field in the schema's words", async () => {
    const before = await countLeads();
    const res = await post({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: "validation",
        message: "Please enter your full name",
        fields: {
          name: "Please enter your full name",
          email: "Please enter a valid email address",
          whatsapp: "Please enter a valid WhatsApp number",
        },
      },
    });
    expect(await countLeads()).toBe(before);
  });

  it("refuses a malformed e-mail address and a WhatsApp number with too few digits", async () => {
    const res = await post(order({ email: "thandi@", whatsapp: "0825" }));
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.fields).toEqual({ email: "Please enter a valid email address", whatsapp: "Please enter a valid WhatsApp number" });
  });

  it("requires the free-text platform when the platform is 'other'", async () => {
    const res = await post(order({ internetPlatform: "other", otherPlatform: "  " }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: "validation",
      message: OTHER_PLATFORM_MESSAGE,
      fields: { otherPlatform: OTHER_PLATFORM_MESSAGE },
    });
  });

  it("enforces the option lists for device, internet platform and form type", async () => {
    const res = await post(order({ device: "toaster", internetPlatform: "dial-up", formType: "quote" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      device: "Please choose a device from the list",
      internetPlatform: "Please choose an internet platform from the list",
      formType: "Form type must be order or free-trial",
    });
  });

  it("treats a body that is not an object as an empty form", async () => {
    for (const body of [["Thandi"], "Thandi", 42, null]) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.name).toBe("Please enter your full name");
    }
  });

  it("stores text PostgreSQL would refuse (NUL, unpaired surrogates) cleaned, never failing", async () => {
    const body = order({ name: "Thandi\u0000 Mokoena \ud800", internetSpeed: "50\u0000 Mbps", note: { deep: "a\u0000b" } });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const lead = await leadById(res.json().id);
    expect(lead.name).toBe("Thandi Mokoena \ufffd");
    expect(lead.internet_speed).toBe("50 Mbps");
    expect(lead.payload.internetSpeed).toBe("50 Mbps");
    expect(lead.payload.note).toBeUndefined();
  });
});

describe("POST /api/orders: free trials", () => {
  afterEach(async () => {
    vi.useRealTimers();
    await t.app.db.delete(trialBlackoutDays);
  });

  it("saves a free-trial lead when the duration or the form type says so", async () => {
    const byDuration = (await post(order({ duration: "free-trial", package: "", formType: undefined }))).json() as OrderSubmitted;
    const byFormType = (await post(order({ formType: "free-trial", duration: "" }))).json() as OrderSubmitted;
    expect((await leadById(byDuration.id)).form_type).toBe("free-trial");
    expect((await leadById(byFormType.id)).form_type).toBe("free-trial");
    const text = whatsappText(byDuration.whatsappUrl);
    expect(text).toContain("I'd like to start my free 24-hour trial");
    expect(text).toContain("Duration: Free Trial (24 Hours)");
    expect(text).not.toContain("Package:");
    const [, customer] = await messagesOf(byDuration.id);
    expect(customer.subject).toBe("Your StreamDesk free trial request");
    expect(customer.body).toContain("The trial runs for 24 hours");
  });

  it("refuses a trial on a sport event day, judged by the day in Johannesburg, not UTC", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 22:30 UTC on 21 Nov is 00:30 on 22 Nov in South Africa.
    vi.setSystemTime(new Date("2026-11-21T22:30:00Z"));
    await t.app.db.insert(trialBlackoutDays).values({ day: "2026-11-21", reason: "yesterday's match" });
    const allowed = await post(order({ duration: "free-trial" }));
    expect(allowed.statusCode).toBe(201);

    await t.app.db.insert(trialBlackoutDays).values({ day: "2026-11-22", reason: "Springboks v England" });
    const before = await countLeads();
    const refused = await post(order({ duration: "free-trial" }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "trial_unavailable",
      message:
        "Free trials aren't available on sport event days (today: Springboks v England). Please choose a paid package or try again tomorrow.",
    });
    expect(await countLeads()).toBe(before);
    // Paid orders go through on a sport event day.
    expect((await post(order())).statusCode).toBe(201);
  });

  it("uses the plain message when the sport event day has no reason", async () => {
    await t.app.db.insert(trialBlackoutDays).values({ day: saDay(new Date()) });
    const res = await post(order({ duration: "free-trial" }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(TRIAL_UNAVAILABLE_MESSAGE);
  });

  /**
   * The answer to a trial asked for again is a trial answer like any (issue 46: who has been here
   * is not public): the same status and shape as a first trial's, saved as a lead of its own kind.
   */
  const answeredAlike = async (res: Awaited<ReturnType<typeof post>>, first: Awaited<ReturnType<typeof post>>) => {
    expect(res.statusCode, res.body).toBe(first.statusCode);
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(first.json()).sort());
    // the chat it opens asks for a trial as the first did (only the name and reference differ)
    const opening = (r: typeof res) => whatsappText(r.json().whatsappUrl).split("\n")[0];
    expect(opening(res)).toBe(opening(first));
    return leadById(res.json().id);
  };
  const toldAgain = (recipient: string) =>
    t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, TRIAL_AGAIN_KIND), eq(outbox.recipient, recipient)));

  it("gives one trial per WhatsApp number, whatever format it is typed in: asked again, answered alike and told privately", async () => {
    const first = await post(order({ duration: "free-trial", whatsapp: "082 777 0001", email: "first.777@example.co.za" }));
    expect(first.statusCode).toBe(201);
    const again = await post(order({ duration: "free-trial", whatsapp: "+27 82 777 0001", email: "someone.else@example.co.za" }));
    const lead = await answeredAlike(again, first);
    expect(lead.form_type).toBe(TRIAL_AGAIN_FORM);
    expect(await countLeads(sql`form_type = 'free-trial' and whatsapp_digits = '27827770001'`)).toBe(1);
    // nothing to the address typed the second time; the first trial's own address is told, once a day
    expect(await messagesOf(lead.id)).toHaveLength(0);
    const [told] = await toldAgain("first.777@example.co.za");
    expect(told.body).toContain("with your WhatsApp number ending 0001");
    expect(told.body).toContain("no new trial was started and no code was sent");
    await post(order({ duration: "free-trial", whatsapp: "0827770001", email: "third@example.co.za" }));
    expect(await toldAgain("first.777@example.co.za")).toHaveLength(1);
    // ...and the same person may still order a paid package.
    expect((await post(order({ whatsapp: "0827770001" }))).statusCode).toBe(201);
  });

  it("gives one trial per e-mail address, in any letter case", async () => {
    const first = await post(order({ duration: "free-trial", email: "Sipho.Dlamini@Example.co.za" }));
    expect(first.statusCode).toBe(201);
    const again = await post(order({ duration: "free-trial", email: "sipho.dlamini@example.CO.ZA", whatsapp: "082 777 0099" }));
    expect((await answeredAlike(again, first)).form_type).toBe(TRIAL_AGAIN_FORM);
    const [told] = await toldAgain("Sipho.Dlamini@Example.co.za");
    expect(told.body).toContain("with your e-mail address");
  });

  it("gives one trial per mailbox: a.b+1@gmail.com and ab@gmail.com are one Gmail inbox (issue 46 item 3)", async () => {
    const first = await post(order({ duration: "free-trial", email: "a.b+1@gmail.com" }));
    expect(first.statusCode).toBe(201);
    for (const email of ["ab@gmail.com", "A.B@googlemail.com", "ab+2@gmail.com"]) {
      const again = await post(order({ duration: "free-trial", email }));
      expect((await answeredAlike(again, first)).form_type).toBe(TRIAL_AGAIN_FORM);
    }
    // +tags on Outlook too; a different mailbox there (dots count) is its own
    const formOf = async (email: string) => (await leadById((await post(order({ duration: "free-trial", email }))).json().id)).form_type;
    expect(await formOf("neo.k+a@outlook.com")).toBe("free-trial");
    expect(await formOf("neo.k@outlook.com")).toBe(TRIAL_AGAIN_FORM);
    expect(await formOf("neok@outlook.com")).toBe("free-trial");
  });

  it("turns 8 duplicate trials sent together into one trial and seven asked again, all answered alike, never a 500 (on PGlite's one connection they run one after another)", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(order({ duration: "free-trial", whatsapp: "082 888 0002", email: `race${i}@example.co.za` })),
      ),
    );
    expect(attempts.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(await countLeads(sql`whatsapp_digits = '27828880002' and form_type = 'free-trial'`)).toBe(1);
    expect(await countLeads(sql`whatsapp_digits = '27828880002' and form_type = ${TRIAL_AGAIN_FORM}`)).toBe(7);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): duplicate trials on two processes at the same moment pass the friendly check together, and the unique index makes all but one a trial asked again, answered alike, never a 500",
    async () => {
      const other = await secondProcess(t);
      try {
        const trial = (i: number) => order({ duration: "free-trial", whatsapp: "082 888 0003", email: `pgrace${i}@example.co.za` });
        // three a process; each insert waits behind the lock on leads (the pre-check reads pass), then all go
        const sides = await startTogether(t.database.url as string, "LOCK TABLE leads IN EXCLUSIVE MODE", 6, () =>
          Promise.all([t.app, other.app].map((app, p) => Promise.all([0, 1, 2].map((i) => post(trial(p * 3 + i), {}, app))))),
        );
        // both processes answered
        for (const side of sides) for (const r of side) expect(r.statusCode, r.body).toBe(201);
        expect(await countLeads(sql`whatsapp_digits = '27828880003' and form_type = 'free-trial'`)).toBe(1);
        expect(await countLeads(sql`whatsapp_digits = '27828880003' and form_type = ${TRIAL_AGAIN_FORM}`)).toBe(5);
      } finally {
        await other.close();
      }
    },
  );
});

describe("unique violations from the driver", () => {
  // On PGlite the test above may be settled by the friendly pre-check (PGlite runs one query
  // at a time); this pins the mapping the 409 relies on to each driver's real error.
  it("names the one-trial index a duplicate trial collides with, and ignores other errors", async () => {
    const trial = {
      form_type: "free-trial",
      name: "Index Test",
      email: "Index@Example.co.za",
      email_key: "index@example.co.za",
      whatsapp_digits: "27829990009",
    };
    await t.app.db.insert(leads).values(trial);
    const caught = async (values: typeof trial) =>
      t.app.db
        .insert(leads)
        .values(values)
        .then(
          () => null,
          (error: unknown) => error,
        );
    expect(uniqueViolation(await caught({ ...trial, email: "other@example.co.za", email_key: "other@example.co.za" }))).toBe(
      "leads_one_trial_per_whatsapp",
    );
    expect(uniqueViolation(await caught({ ...trial, whatsapp_digits: "27820000000", email: "index@example.CO.ZA" }))).toBe(
      "leads_one_trial_per_email",
    );
    expect(
      uniqueViolation(
        await t.app.db.execute(sql`SELECT 1/0`).then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    ).toBeNull();
    expect(uniqueViolation(new Error("boom"))).toBeNull();
  });
});

describe("POST /api/orders: Idempotency-Key", () => {
  it("answers a retried submission with the lead it saved: 200, same body, one lead, two messages", async () => {
    const body = order();
    const first = await post(body, { "idempotency-key": "retry-1" });
    const second = await post(body, { "idempotency-key": "retry-1" });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await countLeads(sql`idempotency_key = 'retry-1'`)).toBe(1);
    expect(await messagesOf(first.json().id)).toHaveLength(2);
  });

  it("replays a free trial instead of calling it a second trial", async () => {
    const body = order({ duration: "free-trial" });
    const first = await post(body, { "idempotency-key": "trial-retry" });
    const second = await post(body, { "idempotency-key": "trial-retry" });
    expect([first.statusCode, second.statusCode]).toEqual([201, 200]);
    expect(second.json().id).toBe(first.json().id);
  });

  it("saves one lead for 20 submissions sent together with the same key (on PGlite's one connection they run one after another)", async () => {
    const body = order({ duration: "free-trial" });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body, { "idempotency-key": "double-click-20" })));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(await countLeads(sql`idempotency_key = 'double-click-20'`)).toBe(1);
    expect(await messagesOf([...ids][0])).toHaveLength(2);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): the same key on two processes at the same moment saves one lead; every answer names it, both processes answer",
    async () => {
      const other = await secondProcess(t);
      try {
        const body = order({ duration: "free-trial" });
        const sides = await startTogether(t.database.url as string, "LOCK TABLE leads IN EXCLUSIVE MODE", 6, () =>
          Promise.all(
            [t.app, other.app].map((app) => Promise.all([0, 1, 2].map(() => post(body, { "idempotency-key": "pg-race-key" }, app)))),
          ),
        );
        const all = sides.flat();
        expect(all.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
        const ids = new Set(all.map((r) => r.json().id));
        expect(ids.size).toBe(1);
        expect(await countLeads(sql`idempotency_key = 'pg-race-key'`)).toBe(1);
        expect(await messagesOf([...ids][0])).toHaveLength(2);
      } finally {
        await other.close();
      }
    },
  );

  it("refuses a key longer than 200 characters, and a key already used by the interest form", async () => {
    const long = await post(order(), { "idempotency-key": "k".repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe("validation");
    expect((await post(order(), { "idempotency-key": "k".repeat(200) })).statusCode).toBe(201);

    const interest = await t.app.inject({
      method: "POST",
      url: "/api/interest",
      payload: { firstName: "Lindiwe", lastName: "Zulu", email: "lindiwe@example.co.za", whatsapp: "0825550303" },
      headers: { "idempotency-key": "shared-key" },
    });
    expect(interest.statusCode).toBe(201);
    const reused = await post(order(), { "idempotency-key": "shared-key" });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toEqual({ code: "conflict", message: KEY_REUSED_MESSAGE });
  });
});

describe("POST /api/orders: abuse", () => {
  it("refuses a foreign Origin (CSRF) and saves nothing", async () => {
    const body = order();
    const res = await post(body, { origin: "https://evil.example" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
    expect(await countLeads(sql`email = ${body.email}`)).toBe(0);
    expect((await post(order(), { origin: "http://localhost:8080" })).statusCode).toBe(201);
  });

  it("rate-limits per IP: 429 with Retry-After and the error shape, for orders and interest separately", async () => {
    const limited = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 2 });
    try {
      // Up to 2 per one-minute window; if the window turns over mid-test, the next one fills too.
      const statuses: number[] = [];
      let refused: Awaited<ReturnType<typeof post>> | null = null;
      for (let i = 0; i < 5 && !refused; i++) {
        const res = await post(order(), {}, limited.app);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) refused = res;
      }
      expect(refused).not.toBeNull();
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(2);
      const retryAfter = Number(refused?.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused?.json()).toEqual({ error: { code: "rate_limited", message: PUBLIC_WRITE_MESSAGE } });
      // Another address has its own allowance.
      const other = await limited.app.inject({
        method: "POST",
        url: "/api/orders",
        payload: order(),
        remoteAddress: "10.1.2.3",
      });
      expect(other.statusCode).toBe(201);
      // Interest counts separately: its first submission from the limited address goes through.
      const interest = await limited.app.inject({
        method: "POST",
        url: "/api/interest",
        payload: { firstName: "Ayanda", lastName: "Khumalo", email: "ayanda@example.co.za", whatsapp: "0825550404" },
      });
      expect(interest.statusCode).toBe(201);
      const saved = await limited.app.db
        .select({ id: leads.id })
        .from(leads)
        .where(and(eq(leads.ip, "127.0.0.1"), eq(leads.form_type, "order")));
      expect(saved.length).toBe(statuses.filter((s) => s === 201).length);
    } finally {
      await limited.close();
    }
  });
});
