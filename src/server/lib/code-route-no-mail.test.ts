// Issue 41: on a shop whose e-mail does not leave the server yet (no SMTP_URL) and with no WhatsApp
// Cloud API, an e-mail address is not a way to send a code: a mailed code would only wait in the
// outbox, the owner's queue by another name. Each flow says so in its own words and issues nothing.
// Runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leads, outbox, trials, verificationCodes } from "@/server/db/schema";
import { signInAdmin } from "@/server/modules/admin-business/test-admin";
import { makeClient, nextIp, PUBLIC_URL, signIn } from "@/server/modules/client/test-helpers";
import { submitOrder } from "@/server/modules/orders/service";
import { identifyLookupsSettled } from "@/server/modules/payments/service";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { CODE_ROUTE_MESSAGES, identifyMessage, type OrderForm } from "@/shared/schemas";
import { TRIAL_SETTINGS } from "@/shared/trial-schemas";
import { loadBusiness } from "./business";
import { codeRoute } from "./code-route";
import { VERIFICATION_KIND } from "./verification";

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, LOG_LEVEL: "error", SMTP_URL: undefined }, { seed: true });
  const admin = await signInAdmin(t.app);
  const set = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: TRIAL_SETTINGS.mode, value: "instant" } });
  expect([200, 201], set.body).toContain(set.statusCode);
  await eventually(async () => expect((await loadBusiness(t.app)).settings[TRIAL_SETTINGS.mode]).toBe("instant"));
});
afterAll(async () => {
  await t?.close();
});

const codeRows = (column: "lead_id" | "client_id", id: string) =>
  t.app.db.select().from(verificationCodes).where(eq(verificationCodes[column], id));

describe("a shop with no SMTP_URL and no Cloud API", () => {
  it("counts no e-mail address as a code route, and says so to its callers", async () => {
    expect(t.app.outbox.codeTransports).toEqual({ cloudApi: false, email: false });
    expect(await codeRoute(t.app.db, [{ channel: "email", recipient: "someone@example.co.za" }], t.app.outbox.codeTransports)).toEqual([]);
  });

  it("a free trial with an e-mail address is confirmed by the shop instead: no code row, no code message", async () => {
    n += 1;
    const form = {
      name: `No Mail ${n}`,
      email: `no.mail.${n}@example.co.za`,
      whatsapp: `082 410 ${String(7000 + n)}`,
      duration: "free-trial",
      formType: "free-trial",
      package: "",
      device: "",
      internetPlatform: "",
      otherPlatform: "",
      internetSpeed: "",
      marketingOptIn: false,
    } as unknown as OrderForm;
    const saved = await submitOrder(t.app, form, { ip: `10.77.${n}.1`, idempotencyKey: null, payload: {} });
    expect(saved.notice).toBe(CODE_ROUTE_MESSAGES.trialApprove);
    expect(saved.trial).toBeUndefined();
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, saved.id));
    expect(lead).toMatchObject({ form_type: "free-trial", email: form.email });
    expect(await t.app.db.select().from(trials).where(eq(trials.lead_id, saved.id))).toEqual([]);
    expect(await codeRows("lead_id", saved.id)).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.lead_id, saved.id), eq(outbox.kind, VERIFICATION_KIND))),
    ).toEqual([]);
  });

  it("a portal change to a new e-mail address is refused on its field in plain words (409), with no code row and no outbox row", async () => {
    n += 1;
    const client = await makeClient(t.app, {
      username: `nomail${n}`,
      full_name: `No Mail Client ${n}`,
      whatsapp: `278270${String(41_000 + n)}`,
      email: `nomail${n}@example.co.za`,
    });
    const cookie = await signIn(t.app, client);
    const started = await t.app.inject({
      method: "POST",
      url: "/api/client/contact-change",
      payload: { email: `new.${n}@example.co.za` },
      headers: { origin: PUBLIC_URL, cookie },
      remoteAddress: nextIp(),
    });
    expect(started.statusCode, started.body).toBe(409);
    expect(started.json().error).toMatchObject({ code: "no_code_route", fields: { email: CODE_ROUTE_MESSAGES.emailOff } });
    expect(await codeRows("client_id", client.id)).toEqual([]);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.client_id, client.id))).toEqual([]);
  });

  it("a payer whose number is an account's with an e-mail address gets the answer anyone gets (with a way to pay instead); nothing is issued", async () => {
    n += 1;
    const number = `278280${String(41_000 + n)}`;
    const client = await makeClient(t.app, {
      username: `nomailpayer${n}`,
      full_name: `No Mail Payer ${n}`,
      whatsapp: number,
      email: `nomailpayer${n}@example.co.za`,
    });
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/payments/identify",
      payload: { whatsapp: `+${number}`, email: `nomailpayer${n}@example.co.za` },
      headers: { origin: PUBLIC_URL },
      remoteAddress: nextIp(),
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // mail does not leave the server: the e-mail typed is not named, nor asked for
    expect(asked.json()).toEqual({ message: identifyMessage([], false), sentTo: "" });
    await identifyLookupsSettled();
    expect(await codeRows("client_id", client.id)).toEqual([]);
  });
});
