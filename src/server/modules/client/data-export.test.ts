// Issue 46 item 6 (POPIA s23): "Download my data". A client downloads what we hold of them as a
// JSON attachment: their own rows only (two clients, each with orders, payments, messages and
// code events: neither's export shows the other's), no password hash, no code, and the list of
// outside parties that received their data. A suspended client can still download it.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "@/server/auth/sessions";
import { capturedPayments, clients, dataRequests, leads, outbox, verificationCodes, whatsappMessages } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";
import { makeClient, type TestClient } from "./test-helpers";

let t: TestApp;
let a: TestClient;
let b: TestClient;

/** A client with a little of everything the export reads, every value marked with `tag`. */
async function clientWithHistory(tag: string, digits: string): Promise<TestClient> {
  const client = await makeClient(t.app, {
    username: `export-${tag}`,
    full_name: `Person ${tag}`,
    email: `${tag}@example.co.za`,
    whatsapp: digits,
    status: "active",
    line_type: "mag",
    line_mac: `00:1A:79:EE:00:${tag === "alpha" ? "0A" : "0B"}`,
    line_username: `line-${tag}`,
    line_password: `line-pass-${tag}`,
    panel_line_id: `panel-${tag}`,
    marketing_opt_in: true,
    marketing_opt_in_at: new Date("2026-10-01T08:00:00Z"),
  });
  await t.app.db.insert(leads).values({ form_type: "order", name: `Person ${tag}`, email: `${tag}@example.co.za`, client_id: client.id });
  await t.app.db.insert(capturedPayments).values({
    provider: "payfast",
    external_transaction_id: `ref-${tag}`,
    amount: 150,
    client_id: client.id,
    client_email: `${tag}@example.co.za`,
    status: "paid",
    immediate_start_consent_at: new Date("2026-10-02T08:00:00Z"),
  });
  await t.app.db.insert(outbox).values([
    {
      channel: "whatsapp",
      recipient: digits,
      body: `Hi ${tag}, your line is ready`,
      kind: "instructions",
      client_id: client.id,
      status: "sent",
    },
    {
      channel: "email",
      recipient: `${tag}@example.co.za`,
      body: "Your code is {{secret}}",
      kind: "verification-code",
      client_id: client.id,
    },
  ]);
  await t.app.db.insert(whatsappMessages).values([
    { number: digits, direction: "in", text: `hello from ${tag}`, client_id: client.id },
    { number: digits, direction: "out", text: `owner reply to ${tag}`, client_id: client.id },
  ]);
  await t.app.db.insert(verificationCodes).values({
    purpose: "contact-change",
    channel: "email",
    recipient: `${tag}@example.co.za`,
    client_id: client.id,
    requester: `client:${client.id}`,
    code_hash: `hash-of-${tag}-code`,
    expires_at: new Date(Date.now() + 600_000),
  });
  return client;
}

const cookieOf = async (clientId: string) => {
  const { token } = await createSession(t.app.db, { kind: "client", clientId, ttlHours: 1 });
  return { sd_client: token };
};
const download = async (clientId: string) =>
  t.app.inject({ method: "GET", url: "/api/client/data-export", cookies: await cookieOf(clientId) });

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  a = await clientWithHistory("alpha", "27821110001");
  b = await clientWithHistory("bravo", "27821110002");
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/client/data-export", () => {
  it("answers the client's own data as a JSON attachment, and nothing of another client's", async () => {
    const response = await download(a.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["content-disposition"]).toBe('attachment; filename="my-data-export-alpha.json"');
    expect(response.headers["cache-control"]).toBe("no-store");
    const data = response.json();
    expect(data.profile).toMatchObject({ username: "export-alpha", email: "alpha@example.co.za", whatsapp: "27821110001" });
    expect(data.line).toMatchObject({ type: "mag", mac: "00:1A:79:EE:00:0A", username: "line-alpha", password: "line-pass-alpha" });
    expect(data.orders_and_requests).toHaveLength(1);
    expect(data.payments).toMatchObject([{ provider: "payfast", reference: "ref-alpha", status: "paid" }]);
    expect(data.invoices).toEqual([]);
    expect(data.credit_notes).toEqual([]);
    expect(data.messages_sent_to_you.map((m: { body: string }) => m.body)).toEqual([
      "Hi alpha, your line is ready",
      "Your code is [a code or password: not kept in readable form]",
    ]);
    expect(data.whatsapp_messages_from_you.map((m: { text: string }) => m.text)).toEqual(["hello from alpha"]);
    expect(data.consents).toMatchObject({ marketing_opt_in: true, immediate_start: [{ reference: "ref-alpha" }] });
    expect(data.verification_code_events).toMatchObject([
      { purpose: "contact-change", channel: "email", recipient: "alpha@example.co.za" },
    ]);
    expect(data.third_parties.map((p: { name: string }) => p.name)).toEqual([
      "payfast",
      "Meta (WhatsApp)",
      "our e-mail service",
      "our IPTV panel",
    ]);

    const text = response.body;
    for (const other of ["bravo", "27821110002", b.id]) expect(text).not.toContain(other);
    // never a password hash, a code's hash, or the client's internal id
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, a.id));
    expect(text).not.toContain(row.password_hash);
    expect(text).not.toContain("hash-of-alpha-code");
    expect(text).not.toContain(a.id);
  });

  it("lets a suspended client download theirs too", async () => {
    await t.app.db.update(clients).set({ status: "suspended" }).where(eq(clients.id, b.id));
    const response = await download(b.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.username).toBe("export-bravo");
    expect(response.body).not.toContain("alpha");
    // elsewhere a suspended client is still held back
    expect((await t.app.inject({ method: "GET", url: "/api/client/me", cookies: await cookieOf(b.id) })).statusCode).toBe(403);
  });

  it("includes the client's own privacy requests (kind, status, dates, the answer), and not another client's", async () => {
    const due = new Date("2026-12-01T08:00:00Z");
    await t.app.db.insert(dataRequests).values([
      {
        client_id: a.id,
        kind: "correction",
        details: "alpha surname wrong",
        correction: "Alpha Nkosi",
        status: "corrected",
        due_at: due,
        outcome: "alpha name corrected",
        resolved_at: new Date("2026-11-05T08:00:00Z"),
        created_at: new Date("2026-11-01T08:00:00Z"),
      },
      { client_id: a.id, kind: "erasure", status: "open", due_at: due, created_at: new Date("2026-11-02T08:00:00Z") },
      { client_id: b.id, kind: "erasure", details: "bravo leaving", status: "open", due_at: due },
    ]);
    const data = (await download(a.id)).json();
    expect(data.privacy_requests).toEqual([
      {
        kind: "correction",
        status: "corrected",
        details: "alpha surname wrong",
        correction: "Alpha Nkosi",
        asked_at: "2026-11-01T08:00:00.000Z",
        due_at: due.toISOString(),
        answered_at: "2026-11-05T08:00:00.000Z",
        outcome: "alpha name corrected",
      },
      {
        kind: "erasure",
        status: "open",
        details: "",
        correction: "",
        asked_at: "2026-11-02T08:00:00.000Z",
        due_at: due.toISOString(),
        answered_at: null,
        outcome: "",
      },
    ]);
    const theirs = (await download(b.id)).json();
    expect(theirs.privacy_requests).toMatchObject([{ kind: "erasure", status: "open", details: "bravo leaving" }]);
    expect(JSON.stringify(theirs)).not.toContain("alpha");
  });

  it("is for a signed-in client only", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/client/data-export" })).statusCode).toBe(401);
  });
});
