// matchContact, the one place a number or address is matched to a client: the number's own client
// first, else the most recently active standing client with the address; flagged duplicates and
// merged clients never match. (Who may then pay into the match is payments/identity.test.ts.)
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients } from "@/server/db/schema";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import { matchContact, matchContactIds } from "./identity";

let t: TestApp;
let numberOwner: string;
let older: string;
let newer: string;

beforeAll(async () => {
  t = await createTestApp();
  numberOwner = (await makeClient(t.app, { username: "mc-number", whatsapp: "27821110001", email: "number@example.co.za" })).id;
  older = (await makeClient(t.app, { username: "mc-older", whatsapp: "27821110002", email: "home@example.co.za" })).id;
  newer = (await makeClient(t.app, { username: "mc-newer", whatsapp: "27821110003", email: "Home@Example.co.za" })).id;
  await t.app.db
    .update(clients)
    .set({ updated_at: new Date("2026-01-01T00:00:00Z") })
    .where(eq(clients.id, older));
  await t.app.db
    .update(clients)
    .set({ updated_at: new Date("2026-06-01T00:00:00Z") })
    .where(eq(clients.id, newer));
});

afterAll(async () => {
  await t?.close();
});

describe("matchContact", () => {
  it("matches the number's own client even when the address belongs to others", async () => {
    const match = await matchContact(t.app.db, { whatsapp: "082 111 0001", email: "home@example.co.za" });
    expect(match).toMatchObject({ by: "whatsapp", client: { id: numberOwner } });
  });

  it("falls back to the most recently active client with the address, in any case", async () => {
    const match = await matchContact(t.app.db, { whatsapp: "082 999 0000", email: " HOME@example.co.za " });
    expect(match).toMatchObject({ by: "email", client: { id: newer } });
  });

  it("matches on the number alone or the address alone", async () => {
    expect(await matchContact(t.app.db, { whatsapp: "+27 82 111 0002" })).toMatchObject({ by: "whatsapp", client: { id: older } });
    expect(await matchContact(t.app.db, { email: "number@example.co.za" })).toMatchObject({ by: "email", client: { id: numberOwner } });
  });

  it("answers null for a new person and for nothing given", async () => {
    expect(await matchContact(t.app.db, { whatsapp: "082 999 0001", email: "new@example.co.za" })).toBeNull();
    expect(await matchContact(t.app.db, {})).toBeNull();
  });

  it("never matches a flagged possible duplicate or a merged client", async () => {
    const flagged = await makeClient(t.app, {
      username: "mc-flagged",
      whatsapp: "27821110009",
      email: "flagged@example.co.za",
      possible_duplicate_of: numberOwner,
    });
    expect(await matchContact(t.app.db, { whatsapp: "082 111 0009", email: "flagged@example.co.za" })).toBeNull();
    await t.app.db.update(clients).set({ possible_duplicate_of: null, merged_into: numberOwner }).where(eq(clients.id, flagged.id));
    expect(await matchContact(t.app.db, { whatsapp: "082 111 0009", email: "flagged@example.co.za" })).toBeNull();
  });
});

describe("matchContactIds (a batch of orders)", () => {
  it("answers for many people in one go what matchContact answers for each, in their order", async () => {
    await makeClient(t.app, {
      username: "mc-batch-merged",
      whatsapp: "27821110010",
      email: "merged@example.co.za",
      merged_into: numberOwner,
    });
    const people = [
      { whatsapp: "082 111 0001", email: "home@example.co.za" }, // the number's own client
      { whatsapp: "082 999 0000", email: " HOME@example.co.za " }, // the address only: the newer
      { whatsapp: "082 999 0001", email: "new@example.co.za" }, // nobody
      { whatsapp: "+27 82 111 0002" }, // the number alone
      { email: "number@example.co.za" }, // the address alone
      { whatsapp: "082 111 0010", email: "merged@example.co.za" }, // a merged client: nobody
      {},
      { whatsapp: "082 111 0001", email: "home@example.co.za" }, // the same person twice
    ];
    const batch = await matchContactIds(t.app.db, people);
    const alone = await Promise.all(people.map((person) => matchContact(t.app.db, person)));
    expect(batch).toEqual(alone.map((match) => (match ? { clientId: match.client.id, by: match.by } : null)));
    expect(batch.map((match) => match?.clientId ?? null)).toEqual([numberOwner, newer, null, older, numberOwner, null, null, numberOwner]);
  });
});
