// Issue 24: who is paying is proven, never guessed. Each defect the issue found is reproduced
// here (each of these failed on the code before lib/identity.ts and lib/verification.ts), then
// the one-time codes' limits and the owner's merge. Runs on PGlite and, with TEST_DATABASE_URL,
// PostgreSQL.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  capturedPayments,
  clientLifecycleEvents,
  clients,
  invoices,
  leads,
  outbox,
  packages,
  provisioningJobs,
  verificationCodes,
} from "@/server/db/schema";
import { matchContact } from "@/server/lib/identity";
import { applyChange, JOB_ACTOR, loadRules } from "@/server/lib/lifecycle";
import { enqueue } from "@/server/lib/outbox";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { codeSentTo, cookieFrom, makeClient, nextIp, PUBLIC_URL, signIn } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { onPostgres } from "@/server/testing";
import { CONTACT_MESSAGES } from "@/shared/contact";
import { addMonths } from "@/shared/dates";
import { CODE_ROUTE_MESSAGES, identifyMessage } from "@/shared/schemas";
import { identifyLookupsSettled, PAYER_CODE_REFUSED } from "./service";

let t: MessagingTestApp;
let admin: SignedIn;
const pkgId: Record<string, string> = {};

beforeAll(async () => {
  t = await createMessagingTestApp({ config: { SANDBOX_SECRET: "identity-test", PUBLIC_URL, LOG_LEVEL: "error" }, build: { seed: true } });
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, ip = nextIp(), app = t.app) =>
  app.inject({ method: "POST", url, payload: payload as object, headers: { origin: PUBLIC_URL, ...headers }, remoteAddress: ip });
const patch = (url: string, payload: unknown, cookie: string) =>
  t.app.inject({ method: "PATCH", url, payload: payload as object, headers: { origin: PUBLIC_URL, cookie }, remoteAddress: nextIp() });

/** A payment from the storefront's review step, paid on the sandbox checkout. */
async function payAsVisitor(body: Record<string, unknown>): Promise<string> {
  const created = await post("/api/payments/paylink", { packageId: pkgId["Month to Month"], immediateStartConsent: true, ...body });
  expect(created.statusCode, created.body).toBe(201);
  const ref = created.json().externalTransactionID as string;
  const paid = await t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/pay`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  expect(paid.statusCode).toBe(303);
  return ref;
}

const clientRow = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];
const paymentRow = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];

describe("the defects issue 24 found", () => {
  it("a signed-in client cannot take another client's number (PATCH 400; contact-change answered as for any number, its code only to that number), so cannot take their renewal", async () => {
    const real = await makeClient(t.app, { username: "real.r", full_name: "Real R", whatsapp: "27821110001", email: "real@example.co.za" });
    const attacker = await makeClient(t.app, {
      username: "att.a",
      full_name: "Att A",
      whatsapp: "27821110002",
      email: "att@example.co.za",
    });
    const cookie = await signIn(t.app, attacker);
    const direct = await patch("/api/client/me", { whatsapp: "+27 82 111 0001" }, cookie);
    expect(direct.statusCode).toBe(400);
    expect(direct.json().error.fields.whatsapp).toBe("To change your WhatsApp number, confirm the new number with a code");
    // issue 46: whether a number is another client's is not said; its code (where one can go) goes
    // to that number, whose holder alone could confirm it, and the confirm refuses it there
    const viaCode = await post("/api/client/contact-change", { whatsapp: "082 111 0001" }, { cookie });
    const anyNumber = await post("/api/client/contact-change", { whatsapp: "082 111 0009" }, { cookie });
    expect([viaCode.statusCode, viaCode.body]).toEqual([anyNumber.statusCode, anyNumber.body.replaceAll("0009", "0001")]);
    // (no Cloud API here: no code can reach the number, for any number alike)
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, "27821110001"))).toEqual([]);
    expect((await clientRow(attacker.id)).whatsapp).toBe("27821110002");
    // The real customer pays with their number, no code: it is never the attacker's.
    const ref = await payAsVisitor({ name: "Real R", whatsapp: "082 111 0001" });
    const payment = await paymentRow(ref);
    expect(payment.client_id).not.toBe(attacker.id);
    expect(payment.client_id).not.toBe(real.id);
    expect((await clientRow(attacker.id)).subscription_end).toBeNull();
  });

  it("a stranger who types an existing client's e-mail becomes a new client, flagged; the other client's term and line are untouched", async () => {
    const end = new Date(Date.now() + 10 * 86_400_000);
    const existing = await makeClient(t.app, {
      username: "house.h",
      full_name: "House Holder",
      whatsapp: "27821110010",
      email: "family@example.co.za",
      status: "active",
      subscription_end: end,
      panel_line_id: "L-house",
    });
    const ref = await payAsVisitor({ name: "Naledi Stranger", whatsapp: "083 222 0011", email: "family@example.co.za" });
    const payment = await paymentRow(ref);
    expect(payment.status).toBe("paid");
    const [naledi] = await t.app.db.select().from(clients).where(eq(clients.whatsapp, "27832220011"));
    expect(naledi).toMatchObject({ full_name: "Naledi Stranger", status: "active", possible_duplicate_of: existing.id });
    expect(payment.client_id).toBe(naledi.id);
    expect((await clientRow(existing.id)).subscription_end?.getTime()).toBe(end.getTime());
    const jobs = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, existing.id));
    expect(jobs).toEqual([]);
    const view = (await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data;
    expect(view.outcome.account).toBe("created");
  });

  it("stores every number as 27… digits whatever form it was typed in (portal, admin, payments)", async () => {
    const created = await admin.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: "Typed T", whatsapp: "+27 (82) 111-0020", communication_method: "whatsapp", start: "pending" },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().client.whatsapp).toBe("27821110020");
    const ref = await payAsVisitor({ name: "Spaced S", whatsapp: "0027 83 222 0021" });
    const [lead] = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.id, (await paymentRow(ref)).lead_id as string));
    expect([lead.whatsapp, lead.whatsapp_digits]).toEqual(["27832220021", "27832220021"]);
  });

  it("a foreign or malformed number gets the spec's message, and nothing is written", async () => {
    const before = (await t.app.db.select({ id: leads.id }).from(leads)).length;
    for (const whatsapp of ["+44 7911 123456", "12345", "082 123 45678 9"]) {
      const response = await post("/api/payments/paylink", {
        packageId: pkgId["Month to Month"],
        immediateStartConsent: true,
        name: "F",
        whatsapp,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.whatsapp).toBe("Please enter a valid WhatsApp number");
    }
    expect((await t.app.db.select({ id: leads.id }).from(leads)).length).toBe(before);
  });

  it("an admin giving a second client a number another has gets a 409 naming who has it", async () => {
    await makeClient(t.app, { username: "owner.o", full_name: "Owner O", whatsapp: "27821110030" });
    const second = await admin.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: "Second S", whatsapp: "082 111 0030", communication_method: "whatsapp", start: "pending" },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.fields.whatsapp).toBe(
      "+27 82 111 0030 is already the WhatsApp number of Owner O (owner.o). A number belongs to one client.",
    );
    const other = await makeClient(t.app, { username: "other.o", full_name: "Other O", whatsapp: "27821110031" });
    const edit = await admin.call({ method: "PATCH", url: `/api/admin/clients/${other.id}`, payload: { whatsapp: "0821110030" } });
    expect(edit.statusCode).toBe(409);
    expect((await clientRow(other.id)).whatsapp).toBe("27821110031");
  });
});

describe("a returning customer proves who they are", () => {
  it("identify names what was typed that a code can reach (no Cloud API: the e-mail, never WhatsApp) and sends it only where that is the client's recorded contact; the paylink with it renews that client and signs them in", async () => {
    const end = new Date(Date.now() + 5 * 86_400_000);
    const thandi = await makeClient(t.app, {
      username: "thandi.t",
      full_name: "Thandi T",
      whatsapp: "27821110040",
      email: "thandi@example.co.za",
      status: "active",
      subscription_end: end,
    });
    const codesOf = () =>
      t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, "verification-code"), eq(outbox.client_id, thandi.id)));
    // Typed with another e-mail address: the answer names that address, and it gets nothing (not hers).
    const other = await post("/api/payments/identify", { whatsapp: "082 111 0040", email: "someone@else.co.za" });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ message: identifyMessage(["s***@else.co.za"], false), sentTo: "s***@else.co.za" });
    await identifyLookupsSettled();
    expect(await codesOf()).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, "someone@else.co.za"))).toEqual([]);

    // With her own address: the code goes there, and only there (WhatsApp cannot carry it without the Cloud API).
    const found = await post("/api/payments/identify", { whatsapp: "082 111 0040", email: "Thandi@Example.co.za" });
    expect(found.json()).toEqual({ message: identifyMessage(["t***@example.co.za"], false), sentTo: "t***@example.co.za" });
    await identifyLookupsSettled();
    const codes = await codesOf();
    expect(codes.map((c) => c.recipient)).toEqual(["thandi@example.co.za"]);
    expect(codes.every((c) => c.secret_enc && !/\d{6}/.test(c.body))).toBe(true);
    const code = await codeSentTo(t.app, "thandi@example.co.za");

    const created = await post("/api/payments/paylink", {
      packageId: pkgId["Month to Month"],
      immediateStartConsent: true,
      name: "Thandi",
      whatsapp: "082 111 0040",
      verificationCode: code,
    });
    expect(created.statusCode, created.body).toBe(201);
    const cookie = cookieFrom(created, "sd_client");
    expect((await t.app.inject({ method: "GET", url: "/api/client/session", headers: { cookie } })).json().client.username).toBe(
      "thandi.t",
    );
    const ref = created.json().externalTransactionID;
    expect((await paymentRow(ref)).client_id).toBe(thandi.id);
    // The code was used: the same code again is refused on verificationCode, nothing written.
    const again = await post("/api/payments/paylink", {
      packageId: pkgId["Month to Month"],
      immediateStartConsent: true,
      name: "Thandi",
      whatsapp: "082 111 0040",
      verificationCode: code,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.verificationCode).toBe(PAYER_CODE_REFUSED);
  });

  it("a number alone, with no Cloud API, is answered that no code can go to it and asked for the account's e-mail address, as anyone's is; nothing is issued, not even to the e-mail on file", async () => {
    const only = await makeClient(t.app, {
      username: "wa.only",
      full_name: "Wa Only",
      whatsapp: "27821110045",
      email: "wa.only@example.co.za",
    });
    const response = await post("/api/payments/identify", { whatsapp: "082 111 0045" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: identifyMessage([], true), sentTo: "" });
    expect(response.json().message).toBe(
      "We can't send a code to what you typed right now. Add the e-mail address on your account above and ask again to get a code there. Or sign in to your client portal, or continue as a new customer.",
    );
    expect((await post("/api/payments/identify", { whatsapp: "083 999 0045" })).json()).toEqual(response.json());
    await identifyLookupsSettled();
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.client_id, only.id))).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.client_id, only.id))).toEqual([]);
  });

  it("a number nobody has gets the same status, shape and words as a client's number, and nothing is sent; a bad number or address is a 400 on its field, and nothing is issued", async () => {
    await makeClient(t.app, { username: "known.k", full_name: "Known K", whatsapp: "27821110046", email: "known@example.co.za" });
    const known = await post("/api/payments/identify", { whatsapp: "082 111 0046", email: "known@example.co.za" });
    await identifyLookupsSettled();
    expect(await codeSentTo(t.app, "known@example.co.za")).toMatch(/^\d{6}$/);
    const before = (await t.app.db.select().from(verificationCodes)).length;
    // the same first letter and domain: the masked address in the answer is the same too
    const response = await post("/api/payments/identify", { whatsapp: "083 999 0001", email: "kate@example.co.za" });
    expect(response.statusCode).toBe(known.statusCode);
    expect(response.json()).toEqual(known.json());
    expect(response.headers["content-length"]).toBe(known.headers["content-length"]);
    await identifyLookupsSettled();
    expect((await t.app.db.select().from(verificationCodes)).length).toBe(before);
    const bad = await post("/api/payments/identify", { whatsapp: "+1 555 0100" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.whatsapp).toBe("Please enter a valid WhatsApp number");
    const badEmail = await post("/api/payments/identify", { whatsapp: "082 111 0046", email: "known@example" });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.fields.email).toBe(CONTACT_MESSAGES.email);
    await identifyLookupsSettled();
    expect((await t.app.db.select().from(verificationCodes)).length).toBe(before);
  });
});

describe("codes tell a stranger nothing", () => {
  it("a code given for a number nobody has is refused in the very words of a wrong code for a client's number", async () => {
    const client = await makeClient(t.app, {
      username: "coded.c",
      full_name: "Coded C",
      whatsapp: "27821110047",
      email: "coded@example.co.za",
    });
    await post("/api/payments/identify", { whatsapp: "082 111 0047", email: "coded@example.co.za" });
    await identifyLookupsSettled();
    const code = await codeSentTo(t.app, "coded@example.co.za");
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const pay = (whatsapp: string, verificationCode: string) =>
      post("/api/payments/paylink", {
        packageId: pkgId["Month to Month"],
        immediateStartConsent: true,
        name: "Someone",
        whatsapp,
        verificationCode,
      });
    const theirs = await pay("082 111 0047", wrong);
    const nobody = await pay("083 999 0047", wrong);
    expect(theirs.statusCode).toBe(400);
    expect(nobody.statusCode).toBe(400);
    expect(theirs.json().error).toEqual(nobody.json().error);
    expect(nobody.json().error.fields.verificationCode).toBe(PAYER_CODE_REFUSED);
    expect((await clientRow(client.id)).whatsapp).toBe("27821110047");
  });
});

describe("one-time codes", () => {
  async function contactChange(clientNumber: string, username: string) {
    const client = await makeClient(t.app, {
      username,
      full_name: `${username} K`,
      whatsapp: clientNumber,
      email: `${username}@example.co.za`,
    });
    return { client, cookie: await signIn(t.app, client) };
  }

  it("a contact change sends the code to the NEW address; confirming changes it and tells the old one", async () => {
    const { client, cookie } = await contactChange("27821110050", "chg1");
    const started = await post("/api/client/contact-change", { email: "New1@Example.co.za" }, { cookie });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual({ sentTo: "n***@example.co.za", channel: "email" });
    const code = await codeSentTo(t.app, "new1@example.co.za");
    // No copy of the code went anywhere else (a copy would prove nothing).
    const sent = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "verification-code"), eq(outbox.client_id, client.id)));
    expect(sent.map((m) => m.recipient)).toEqual(["new1@example.co.za"]);
    const done = await post("/api/client/contact-change/confirm", { code }, { cookie });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.email).toBe("new1@example.co.za");
    expect((await clientRow(client.id)).email).toBe("new1@example.co.za");
    const [notice] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "contact-changed"), eq(outbox.client_id, client.id), eq(outbox.channel, "email")));
    expect(notice).toMatchObject({ recipient: "chg1@example.co.za" });
    expect(notice.body).toContain("new1@example.co.za");
  });

  it("without the Cloud API a new WhatsApp number is refused in plain words on the field (409), with no code and nothing queued", async () => {
    const { client, cookie } = await contactChange("27821110055", "chg5");
    const started = await post("/api/client/contact-change", { whatsapp: "083 222 0055" }, { cookie });
    expect(started.statusCode).toBe(409);
    expect(started.json().error).toMatchObject({
      code: "no_code_route",
      fields: { whatsapp: CODE_ROUTE_MESSAGES.whatsappOff },
    });
    expect(await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.client_id, client.id))).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.client_id, client.id))).toEqual([]);
  });

  it("a wrong code is a 400 on code and changes nothing; five wrong tries void it, even for the right code", async () => {
    const { client, cookie } = await contactChange("27821110060", "chg2");
    await post("/api/client/contact-change", { email: "new2@example.co.za" }, { cookie });
    const code = await codeSentTo(t.app, "new2@example.co.za");
    const wrong = code === "111111" ? "222222" : "111111";
    for (let i = 1; i <= 5; i++) {
      const response = await post("/api/client/contact-change/confirm", { code: wrong }, { cookie });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.code).toBe(
        i < 5
          ? `That code is not right. Check the code we sent and try again. ${5 - i === 1 ? "1 try left." : `${5 - i} tries left.`}`
          : "Too many wrong tries: this code no longer works. Ask for a new code.",
      );
    }
    const right = await post("/api/client/contact-change/confirm", { code }, { cookie });
    expect(right.statusCode).toBe(400);
    expect((await clientRow(client.id)).email).toBe("chg2@example.co.za");
    const malformed = await post("/api/client/contact-change/confirm", { code: "12ab" }, { cookie });
    expect(malformed.json().error.fields.code).toBe("Enter the 6-digit code we sent");
  });

  it("an expired code is refused; a used one cannot be used again", async () => {
    const { client, cookie } = await contactChange("27821110070", "chg3");
    await post("/api/client/contact-change", { email: "new3@example.co.za" }, { cookie });
    const code = await codeSentTo(t.app, "new3@example.co.za");
    await t.app.db
      .update(verificationCodes)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(verificationCodes.client_id, client.id));
    const expired = await post("/api/client/contact-change/confirm", { code }, { cookie });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.fields.code).toBe("This code has expired or was already used. Ask for a new code.");
    expect((await clientRow(client.id)).email).toBe("chg3@example.co.za");

    await post("/api/client/contact-change", { email: "new3b@example.co.za" }, { cookie });
    const fresh = await codeSentTo(t.app, "new3b@example.co.za");
    expect((await post("/api/client/contact-change/confirm", { code: fresh }, { cookie })).statusCode).toBe(200);
    const reused = await post("/api/client/contact-change/confirm", { code: fresh }, { cookie });
    expect(reused.statusCode).toBe(400);
  });

  it("asking again and again gets the same 200 answer, and while the first code still works no second one is sent", async () => {
    await makeClient(t.app, { username: "cap.c", full_name: "Cap C", whatsapp: "27821110080", email: "cap.c@example.co.za" });
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await post("/api/payments/identify", { whatsapp: "082 111 0080", email: "cap.c@example.co.za" }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    await identifyLookupsSettled();
    const queued = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "verification-code"), eq(outbox.recipient, "cap.c@example.co.za")));
    expect(queued).toHaveLength(1);
  });

  it("two confirmations of the same code sent together (taking turns on PGlite's one connection) make one change and one notice", async () => {
    const { client, cookie } = await contactChange("27821110090", "chg4");
    await post("/api/client/contact-change", { email: "new4@example.co.za" }, { cookie });
    const code = await codeSentTo(t.app, "new4@example.co.za");
    const answers = await Promise.all([
      post("/api/client/contact-change/confirm", { code }, { cookie }),
      post("/api/client/contact-change/confirm", { code }, { cookie }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const notices = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "contact-changed"), eq(outbox.client_id, client.id), eq(outbox.channel, "email")));
    expect(notices.map((n) => n.recipient)).toEqual(["chg4@example.co.za"]);
    expect((await clientRow(client.id)).email).toBe("new4@example.co.za");
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): confirmations of one code on two processes at the same moment make one change and one notice; the other is refused",
    async () => {
      const other = await secondProcess(t);
      try {
        const { client, cookie } = await contactChange("27821110091", "chgpg");
        await post("/api/client/contact-change", { email: "newpg@example.co.za" }, { cookie });
        const code = await codeSentTo(t.app, "newpg@example.co.za");
        const confirm = (app: typeof t.app) => post("/api/client/contact-change/confirm", { code }, { cookie }, nextIp(), app);
        // each confirmation's use of the code waits behind the lock on verification_codes, then both go
        const answers = await startTogether(t.database.url as string, "LOCK TABLE verification_codes IN EXCLUSIVE MODE", 2, () =>
          Promise.all([confirm(t.app), confirm(other.app)]),
        );
        expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join(" ")).toEqual([200, 400]);
        const notices = await t.app.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.kind, "contact-changed"), eq(outbox.client_id, client.id), eq(outbox.channel, "email")));
        expect(notices.map((n) => n.recipient)).toEqual(["chgpg@example.co.za"]);
        expect((await clientRow(client.id)).email).toBe("newpg@example.co.za");
      } finally {
        await other.close();
      }
    },
  );
});

describe("the owner merges a flagged duplicate", () => {
  it.runIf(onPostgres())(
    "on PostgreSQL, a message queued for a client does not wait for a term change holding the client's row (a merge deadlocked with the owner queue)",
    async () => {
      const client = await makeClient(t.app, {
        username: "lock.k",
        full_name: "Lock K",
        whatsapp: "27821110199",
        status: "active",
        subscription_end: new Date(Date.now() + 86_400_000),
      });
      const rules = await loadRules(t.app);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // A term change (as a merge makes) holds the client's row until released.
      const change = t.app.db.transaction(async (tx) => {
        const applied = await applyChange(tx, {
          clientId: client.id,
          cause: { kind: "complimentary-grant", days: 1 },
          causeKey: `lock-test:${client.id}`,
          actor: JOB_ACTOR,
          rules,
          reason: "lock test",
        });
        expect(applied.applied).toBe(true);
        locked();
        await held;
      });
      await isLocked;
      // Meanwhile a message for the client is queued in its own transaction, as the owner-queue
      // worker queues an e-mail copy while holding the WhatsApp rows a merge must move.
      const queued = enqueue(t.app.db, {
        channel: "email",
        recipient: "lock.k@example.co.za",
        body: "copy",
        kind: "lock-test",
        client_id: client.id,
      });
      const outcome = await Promise.race([
        queued.then(() => "queued"),
        new Promise((resolve) => setTimeout(() => resolve("waited for the change"), 2000)),
      ]);
      release();
      await change;
      await queued;
      expect(outcome).toBe("queued");
      const rows = await t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, "lock-test"), eq(outbox.client_id, client.id)));
      expect(rows).toHaveLength(1);
    },
  );

  it("moves payments, invoices and the paid months to the kept client through the lifecycle, exactly once, audited", async () => {
    const end = new Date(Date.now() + 4 * 86_400_000);
    const kept = await makeClient(t.app, {
      username: "kept.k",
      full_name: "Kept K",
      whatsapp: "27821110100",
      status: "active",
      subscription_end: end,
      panel_line_id: "L-kept",
    });
    // The same person paid without the code: a new account, flagged.
    const ref = await payAsVisitor({ name: "Kept K", whatsapp: "082 111 0100" });
    const dupId = (await paymentRow(ref)).client_id as string;
    expect(dupId).not.toBe(kept.id);
    expect((await clientRow(dupId)).possible_duplicate_of).toBe(kept.id);

    // Three owners' clicks at once: one merge, two 409s (no deadlock on PostgreSQL: merges queue on an advisory lock).
    const answers = await Promise.all([1, 2, 3].map(() => admin.call({ method: "POST", url: `/api/admin/clients/${dupId}/merge` })));
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join(" ")).toEqual([200, 409, 409]);
    expect((await paymentRow(ref)).client_id).toBe(kept.id);
    expect((await t.app.db.select().from(invoices).where(eq(invoices.client_id, dupId))).length).toBe(0);
    expect((await t.app.db.select().from(invoices).where(eq(invoices.client_id, kept.id))).length).toBe(1);
    const after = await clientRow(kept.id);
    expect(after.subscription_end?.getTime()).toBe(addMonths(end, 1).getTime());
    expect(after.panel_line_id).toBe("L-kept");
    const merged = await clientRow(dupId);
    expect(merged).toMatchObject({ merged_into: kept.id, status: "expired", possible_duplicate_of: null });
    const moves = await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, kept.id));
    expect(moves.map((m) => m.cause)).toEqual(["merged-in"]);
    // The kept line is extended on the panel by the package, once.
    const jobs = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, kept.id));
    expect(jobs.map((j) => j.action)).toEqual(["extend_line"]);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "merge"), eq(auditLog.resource_id, kept.id)));
    expect(audits).toHaveLength(1);
    // The number is the kept client's alone again.
    expect((await matchContact(t.app.db, { whatsapp: "27821110100" }))?.client.id).toBe(kept.id);
  });

  it("dismissing the flag keeps both; a shared number must first change (409)", async () => {
    const existing = await makeClient(t.app, {
      username: "mum.m",
      full_name: "Mum M",
      whatsapp: "27821110110",
      email: "home@example.co.za",
    });
    const ref = await payAsVisitor({ name: "Son S", whatsapp: "083 222 0110", email: "home@example.co.za" });
    const son = (await paymentRow(ref)).client_id as string;
    const dismissed = await admin.call({ method: "POST", url: `/api/admin/clients/${son}/dismiss-duplicate` });
    expect(dismissed.statusCode).toBe(200);
    expect((await clientRow(son)).possible_duplicate_of).toBeNull();
    expect((await clientRow(existing.id)).merged_into).toBeNull();
    const again = await admin.call({ method: "POST", url: `/api/admin/clients/${son}/dismiss-duplicate` });
    expect(again.statusCode).toBe(409);

    await makeClient(t.app, { username: "twin.a", full_name: "Twin A", whatsapp: "27821110120" });
    const twinRef = await payAsVisitor({ name: "Twin B", whatsapp: "082 111 0120" });
    const twinB = (await paymentRow(twinRef)).client_id as string;
    const clash = await admin.call({ method: "POST", url: `/api/admin/clients/${twinB}/dismiss-duplicate` });
    expect(clash.statusCode).toBe(409);
    expect((await clientRow(twinB)).possible_duplicate_of).not.toBeNull();
  });
});
