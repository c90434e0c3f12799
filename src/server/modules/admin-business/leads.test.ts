// Admin leads: the list with its filters and one-click WhatsApp, status and notes, and the
// conversion of a lead into a client (pending or on a trial, never a free term; no password
// answered or promised: the welcome carries a set-password link; second conversion 409), or the
// renewal of a returning client's account.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, clients, leads, outbox, packages, siteSettings } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import { addMonths } from "@/shared/dates";
import { type SignedIn, signInAdmin } from "./test-admin";

let t: TestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100000, PUBLIC_URL: "https://shop.example.co.za" }, { seed: true });
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
});

const order = async (payload: Record<string, unknown>) => {
  const response = await t.app.inject({ method: "POST", url: "/api/orders", payload });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
};

/** The client's welcome messages, each with its set-password link opened, e-mail first. */
const welcomeOf = async (clientId: string) => {
  const rows = await t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "welcome")))
    .orderBy(outbox.channel);
  return Promise.all(rows.map(async (row) => ({ ...row, link: row.secret_enc ? await open(t.app.db, row.secret_enc) : null })));
};

const auditFor = (resource: string, id: string) =>
  t.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.resource_id, id)));

describe("admin leads", () => {
  let thaboLead: string;
  let trialLead: string;

  beforeAll(async () => {
    thaboLead = await order({
      name: "Thabo Mokoena",
      email: "thabo.mokoena@example.co.za",
      whatsapp: "082 555 0101",
      package: "3 Months",
      duration: "3 Months",
      device: "firestick",
      internetPlatform: "fibre",
      marketingOptIn: true,
    });
    trialLead = await order({
      name: "Thandi Mokoena",
      email: "thandi@example.co.za",
      whatsapp: "083 444 0202",
      duration: "free-trial",
      formType: "free-trial",
      device: "smart-tv-samsung",
    });
    await order({ name: "Pieter van Wyk", email: "pieter@example.co.za", whatsapp: "+27 71 333 0303", package: "12 Months" });
  });

  it("refuses anyone who is not a signed-in admin", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/admin/leads" });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("unauthorized");
  });

  it("lists newest first with a total, and each row carries a WhatsApp link greeting the person about their request", async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/leads" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.total).toBe(3);
    expect(body.data.map((l: { name: string }) => l.name)).toEqual(["Pieter van Wyk", "Thandi Mokoena", "Thabo Mokoena"]);
    const thabo = body.data.find((l: { id: string }) => l.id === thaboLead);
    expect(thabo.idempotency_key).toBeUndefined();
    const url = new URL(thabo.whatsapp_url);
    expect(`${url.origin}${url.pathname}`).toBe("https://wa.me/27825550101");
    expect(url.searchParams.get("text")).toBe("Hi Thabo, this is StreamDesk about your order for the 3 Months package on our website.");
    const trial = body.data.find((l: { id: string }) => l.id === trialLead);
    expect(new URL(trial.whatsapp_url).searchParams.get("text")).toContain("free 24-hour trial request");
  });

  it("filters by search (name, e-mail, WhatsApp digits as typed locally, package), status, form type and dates, and pages", async () => {
    const names = async (query: string) => {
      const response = await admin.call({ method: "GET", url: `/api/admin/leads?${query}` });
      expect(response.statusCode).toBe(200);
      return response.json().data.map((l: { name: string }) => l.name);
    };
    expect(await names("q=mokoena")).toEqual(["Thandi Mokoena", "Thabo Mokoena"]);
    expect(await names("q=PIETER%40example")).toEqual(["Pieter van Wyk"]);
    expect(await names(`q=${encodeURIComponent("082 555")}`)).toEqual(["Thabo Mokoena"]);
    expect(await names("q=12%20Months")).toEqual(["Pieter van Wyk"]);
    expect(await names("q=100%25")).toEqual([]);
    expect(await names("form_type=free-trial")).toEqual(["Thandi Mokoena"]);
    expect(await names("status=new&sort=name&dir=asc")).toEqual(["Pieter van Wyk", "Thabo Mokoena", "Thandi Mokoena"]);
    expect(await names("from=2000-01-01&to=2000-12-31")).toEqual([]);
    const page2 = await admin.call({ method: "GET", url: "/api/admin/leads?page=2&pageSize=2" });
    expect(page2.json()).toMatchObject({ total: 3, data: [{ name: "Thabo Mokoena" }] });
  });

  it("answers 400 with fields for a bad filter", async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/leads?pageSize=500&sort=password" });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields).sort()).toEqual(["pageSize", "sort"]);
  });

  it("updates status and notes, with an audit entry", async () => {
    const response = await admin.call({
      method: "PATCH",
      url: `/api/admin/leads/${trialLead}`,
      payload: { status: "contacted", notes: "Called, will install tonight" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ status: "contacted", notes: "Called, will install tonight" });
    const bad = await admin.call({ method: "PATCH", url: `/api/admin/leads/${trialLead}`, payload: { status: "won" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.status).toBeDefined();
    const entries = await auditFor("leads", trialLead);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "update", admin_id: admin.adminId, admin_email: admin.email });
    expect((entries[0].before as { status: string }).status).toBe("new");
    expect((entries[0].after as { status: string }).status).toBe("contacted");
    expect((await admin.call({ method: "GET", url: "/api/admin/leads/00000000-0000-4000-8000-000000000000" })).statusCode).toBe(404);
  });

  it("converts a lead into a pending client: details copied, no term until they pay, lead converted, no password answered, one welcome with a set-password link queued", async () => {
    const response = await admin.call({ method: "POST", url: `/api/admin/leads/${thaboLead}/convert`, payload: {} });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).not.toHaveProperty("password");
    const { client, renewed } = body;
    expect(renewed).toBe(false);
    expect(body.queued_to).toEqual([
      { channel: "whatsapp", hint: "ending 0101" },
      { channel: "email", hint: "t***@example.co.za" },
    ]);
    expect(client.password_hash).toBeUndefined();
    expect(client).toMatchObject({
      username: "thabo.m",
      full_name: "Thabo Mokoena",
      email: "thabo.mokoena@example.co.za",
      whatsapp: "27825550101",
      communication_method: "whatsapp",
      marketing_opt_in: true,
      device: "firestick",
      internet_platform: "fibre",
      package_id: pkgId["3 Months"],
      package_name: "3 Months",
      // Converting used to make an Active client with a full term and no payment.
      status: "pending",
      subscription_start: null,
      subscription_end: null,
    });
    expect(client.marketing_opt_in_at).not.toBeNull();

    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, thaboLead));
    expect(lead).toMatchObject({ status: "converted", client_id: client.id });

    const welcome = await welcomeOf(client.id);
    expect(welcome.map((m) => `${m.channel}:${m.recipient}`)).toEqual(["email:thabo.mokoena@example.co.za", "whatsapp:27825550101"]);
    for (const message of welcome) {
      expect(message).toMatchObject({ lead_id: thaboLead, dedupe_key: `welcome:${client.id}:${message.channel}` });
      expect(message.body).toContain("https://shop.example.co.za/client/login");
      expect(message.body).toContain("Username: thabo.m");
      expect(message.body).not.toContain("comes separately");
      expect(message.body).toContain("Choose your password here (the link works for 7 days, once)");
      expect(message.link).toMatch(/^https:\/\/shop\.example\.co\.za\/client-password-reset\?token=[A-Za-z0-9_-]{43}$/);
      expect(message.body).not.toContain(message.link);
      expect(message.body).toContain("Your subscription starts as soon as your payment is confirmed");
      // The featured app that runs on a Fire Stick, with its guide.
      expect(message.body).toContain("Install IPTV Smarters Pro on your Amazon Fire Stick");
      expect(message.body).toContain("Login with Xtream Codes API");
      expect(message.body).toContain("— StreamDesk");
    }
    expect(welcome.find((m) => m.channel === "email")?.subject).toBe("Welcome to StreamDesk: your client portal");

    const leadAudit = await auditFor("leads", thaboLead);
    expect(leadAudit.map((e) => e.action)).toEqual(["convert"]);
    const clientAudit = await auditFor("clients", client.id);
    expect(clientAudit.map((e) => e.action)).toEqual(["create"]);
    expect((clientAudit[0].after as { password_hash: string }).password_hash).toBe("[hidden]");
  });

  it("refuses to convert the same lead twice (409) and makes no second client", async () => {
    const before = (await t.app.db.select().from(clients)).length;
    const again = await admin.call({ method: "POST", url: `/api/admin/leads/${thaboLead}/convert` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: "conflict", message: "This lead is already a client." });
    expect(await t.app.db.select().from(clients)).toHaveLength(before);
  });

  it("two conversions sent together (taking turns on PGlite's one connection) make one client", async () => {
    const lead = await order({ name: "Race Condition", email: "race@example.co.za", whatsapp: "082 123 9999", package: "3 Months" });
    const before = (await t.app.db.select().from(clients)).length;
    const responses = await Promise.all([1, 2].map(() => admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert` })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await t.app.db.select().from(clients)).toHaveLength(before + 1);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): conversions of one lead on two processes at the same moment: one client, the other told it is already one; one welcome per channel",
    async () => {
      const other = await secondProcess(t);
      try {
        const otherAdmin = await signInAdmin(other.app);
        const lead = await order({ name: "Race Twice", email: "race.pg@example.co.za", whatsapp: "082 123 9998", package: "3 Months" });
        const before = (await t.app.db.select().from(clients)).length;
        const convert = (who: SignedIn) => who.call({ method: "POST", url: `/api/admin/leads/${lead}/convert` });
        const responses = await startTogether(t.database.url as string, "LOCK TABLE leads IN EXCLUSIVE MODE", 2, () =>
          Promise.all([convert(admin), convert(otherAdmin)]),
        );
        expect(responses.map((r) => r.statusCode).sort(), responses.map((r) => r.body).join(" ")).toEqual([201, 409]);
        const refused = responses.find((r) => r.statusCode === 409);
        expect(refused?.json().error).toMatchObject({ code: "conflict", message: "This lead is already a client." });
        expect(await t.app.db.select().from(clients)).toHaveLength(before + 1);
        const made = responses.find((r) => r.statusCode === 201)?.json().client.id as string;
        const channels = (await welcomeOf(made)).map((m) => m.channel);
        expect(channels.length).toBeGreaterThan(0);
        expect(new Set(channels).size).toBe(channels.length);
      } finally {
        await other.close();
      }
    },
  );

  it("converts a free-trial lead to a 24-hour trial, and a second 'Thabo M.' gets a numbered username", async () => {
    const response = await admin.call({ method: "POST", url: `/api/admin/leads/${trialLead}/convert` });
    expect(response.statusCode).toBe(201);
    const { client, password, queued_to } = response.json();
    expect(password).toBeUndefined();
    expect(queued_to.map((q: { channel: string }) => q.channel)).toContain("whatsapp");
    expect(client.username).toBe("thandi.m");
    expect(client.status).toBe("trial");
    const hours = (Date.parse(client.subscription_end) - Date.parse(client.subscription_start)) / 3_600_000;
    expect(hours).toBe(24);
    // A converted free-trial customer used to be promised a password that never came.
    const welcome = await welcomeOf(client.id);
    const message = welcome.find((m) => m.channel === "whatsapp");
    if (!message) throw new Error("no WhatsApp welcome");
    expect(welcome.filter((m) => m.channel === "whatsapp")).toHaveLength(1);
    expect(message.body).not.toContain("comes separately");
    expect(message.body).toContain("Choose your password here");
    expect(message.link).toMatch(/\/client-password-reset\?token=[A-Za-z0-9_-]{43}$/);
    expect(message.body).toContain("Your free trial runs until");
    expect(message.body).toContain("Install Smart IPTV on your Smart TV - Samsung, Hisense, LG");

    const twin = await order({
      name: "Thabo Mokwena",
      email: "other.thabo@example.co.za",
      whatsapp: "084 111 0404",
      package: "Month to Month",
    });
    const converted = await admin.call({
      method: "POST",
      url: `/api/admin/leads/${twin}/convert`,
      payload: { package_id: pkgId["6 Months"] },
    });
    expect(converted.statusCode).toBe(201);
    expect(converted.json().client).toMatchObject({
      username: "thabo.m2",
      package_name: "6 Months",
      status: "pending",
      subscription_end: null,
    });
  });

  it("the first payment after a conversion buys exactly its own term (not a second one on top of a free one)", async () => {
    const lead = await order({ name: "Sizwe Dlamini", email: "sizwe@example.co.za", whatsapp: "082 700 0606", package: "Month to Month" });
    const { client } = (await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: {} })).json();
    const before = Date.now();
    const paid = await admin.call({
      method: "POST",
      url: "/api/admin/payments",
      payload: { client_id: client.id, package_id: pkgId["Month to Month"], amount: 650, note: "Cash" },
    });
    expect(paid.statusCode).toBe(201);
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row.status).toBe("active");
    expect(row.subscription_end?.getTime()).toBeGreaterThanOrEqual(addMonths(before, 1).getTime() - 1000);
    expect(row.subscription_end?.getTime()).toBeLessThanOrEqual(addMonths(Date.now(), 1).getTime());
  });

  it("gives a free-trial lead the trial length the settings say (48 hours)", async () => {
    await t.app.db.update(siteSettings).set({ value: "48" }).where(eq(siteSettings.key, "free_trial_hours"));
    try {
      const lead = await order({
        name: "Ayanda Ngcobo",
        email: "ayanda@example.co.za",
        whatsapp: "082 700 0707",
        duration: "free-trial",
        formType: "free-trial",
      });
      // The settings reach the server's cache through the change feed.
      const client = await eventually(async () => {
        const probe = await order({
          name: "Probe",
          email: `probe-${Date.now()}@example.co.za`,
          whatsapp: `0827${String(Date.now() % 1000000).padStart(6, "0")}`,
          duration: "free-trial",
          formType: "free-trial",
        });
        const converted = (await admin.call({ method: "POST", url: `/api/admin/leads/${probe}/convert`, payload: {} })).json().client;
        expect((Date.parse(converted.subscription_end) - Date.parse(converted.subscription_start)) / 3_600_000).toBe(48);
        return (await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: {} })).json().client;
      }, 5000);
      expect((Date.parse(client.subscription_end) - Date.parse(client.subscription_start)) / 3_600_000).toBe(48);
    } finally {
      await t.app.db.update(siteSettings).set({ value: "24" }).where(eq(siteSettings.key, "free_trial_hours"));
    }
  });

  it("recognises a returning client's order, shows it on the lead, and converting renews them: no second account", async () => {
    const [existing] = await t.app.db
      .insert(clients)
      .values({
        username: "mpho.returns",
        password_hash: "x",
        full_name: "Mpho R",
        whatsapp: "27827000808",
        email: "mpho@example.co.za",
        status: "expired",
      })
      .returning();
    const lead = await order({ name: "Mpho R", email: "MPHO@example.co.za", whatsapp: "082 700 0808", package: "6 Months" });
    const read = (await admin.call({ method: "GET", url: `/api/admin/leads/${lead}` })).json().data;
    expect(read).toMatchObject({
      status: "new",
      client_id: existing.id,
      client: { id: existing.id, username: "mpho.returns", status: "expired" },
    });
    const listed = (await admin.call({ method: "GET", url: "/api/admin/leads?q=Mpho" })).json().data;
    expect(listed[0].client.username).toBe("mpho.returns");

    const before = (await t.app.db.select().from(clients)).length;
    const response = await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: {} });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ renewed: true, client: { id: existing.id, package_name: "6 Months", status: "expired" } });
    expect(body).not.toHaveProperty("password");
    expect(body.queued_to).toEqual([{ channel: "whatsapp", hint: "ending 0808" }]);
    expect(body.lead).toMatchObject({ status: "converted", client_id: existing.id });
    expect(await t.app.db.select().from(clients)).toHaveLength(before);
    const [renewal] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, existing.id), eq(outbox.kind, "renewal-link"), eq(outbox.channel, "whatsapp")));
    expect(renewal).toMatchObject({ channel: "whatsapp", recipient: "27827000808" });
    expect(renewal.body).toContain("https://shop.example.co.za/client?renew=1");
    expect(renewal.body).toContain("username mpho.returns");
    // Their term changes only when they pay.
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, existing.id));
    expect(row.subscription_end).toBeNull();
    expect((await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: {} })).statusCode).toBe(409);
  });

  it("answers 409 for a chosen username that is taken, and 400 for a start that would give time without money", async () => {
    const lead = await order({ name: "Lerato Khumalo", email: "lerato@example.co.za", whatsapp: "082 999 0505" });
    const taken = await admin.call({
      method: "POST",
      url: `/api/admin/leads/${lead}/convert`,
      payload: { username: "Thabo.M", package_id: pkgId["Month to Month"] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.username).toBe("That username is taken. Choose another.");
    const active = await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: { start: "active" } });
    expect(active.statusCode).toBe(400);
    expect(active.json().error.fields.start).toBe("A new client starts pending (waiting for payment) or on a free trial");
    const badName = await admin.call({ method: "POST", url: `/api/admin/leads/${lead}/convert`, payload: { username: "x" } });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().error.fields.username).toContain("3-40 characters");
    const [row] = await t.app.db.select().from(leads).where(eq(leads.id, lead));
    expect(row.client_id).toBeNull();
  });
});
