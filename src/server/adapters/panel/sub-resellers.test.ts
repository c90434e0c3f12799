// Sub-resellers on the reseller API (issue 45), the adapter against the fake panel: create_user
// once per username, get_users with balances, adjust_credits both ways and the panel's refusal
// below 0 on either side, member_id on create_line; and manual mode's clear refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "./fake-xtream";
import { createManualPanel } from "./manual";
import { PanelError, SUB_RESELLERS_NEED_API } from "./panel";
import { createXtreamPanel } from "./xtream";

let fake: FakeXtreamPanel;
beforeAll(async () => {
  fake = await startFakeXtreamPanel({ apiKey: "k-subs", credits: 10, existing: { m3u: 0, mag: 0, enigma2: 0 } });
});
afterAll(async () => {
  await fake?.close();
});

const panel = () => createXtreamPanel({ apiUrl: fake.url, apiKey: "k-subs", timeoutMs: 300, retryDelaysMs: [1, 1] });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: PanelError) => error.status,
  );

describe("sub-resellers on the reseller API", () => {
  it("makes a sub-reseller in the member group once: the same username again is STATUS_EXISTS_USERNAME", async () => {
    const p = panel();
    const made = await p.createUser?.({
      username: "sipho",
      password: "secret-pw-1",
      email: "s@example.test",
      member_group_id: "3",
      notes: "n",
    });
    expect(made).toMatchObject({ username: "sipho", email: "s@example.test", credits: 0, enabled: true });
    expect(fake.callsOf("create_user")[0]).toMatchObject({ method: "POST", form: { username: "sipho", member_group_id: "3" } });
    expect(
      await refusal(
        p.createUser?.({ username: "sipho", password: "x-secret-2", email: "", member_group_id: "3", notes: "" }) ?? Promise.resolve(),
      ),
    ).toBe("STATUS_EXISTS_USERNAME");
    expect((await p.users?.())?.map((u) => u.username)).toEqual(["sipho"]);
  });

  it("moves credits to a sub-reseller and back; the panel refuses either side going below 0 and nothing moves", async () => {
    const p = panel();
    const [sipho] = (await p.users?.()) ?? [];
    await p.adjustCredits?.({ id: sipho.id, credits: 4, note: "first order" });
    expect(fake.credits).toBe(6);
    expect((await p.users?.())?.[0].credits).toBe(4);
    await p.adjustCredits?.({ id: sipho.id, credits: -1, note: "back" });
    expect([fake.credits, fake.users.get(sipho.id)?.credits]).toEqual([7, 3]);
    // more than the owner has, more than the partner has
    expect(await refusal(p.adjustCredits?.({ id: sipho.id, credits: 8, note: "" }) ?? Promise.resolve())).toBe(
      "STATUS_INSUFFICIENT_CREDITS",
    );
    expect(await refusal(p.adjustCredits?.({ id: sipho.id, credits: -4, note: "" }) ?? Promise.resolve())).toBe(
      "STATUS_INSUFFICIENT_CREDITS",
    );
    expect([fake.credits, fake.users.get(sipho.id)?.credits]).toEqual([7, 3]);
    expect(fake.creditLogs.map((l) => l.credits)).toEqual([4, -1]);
  });

  it("gives a line to the sub-reseller with member_id while the calling reseller pays", async () => {
    const p = panel();
    const [sipho] = (await p.users?.()) ?? [];
    await p.createLine({ package: "1", trial: false, contact: "Naledi", notes: "x", member_id: sipho.id });
    expect(fake.callsOf("create_line").at(-1)?.form.member_id).toBe(sipho.id);
    expect(fake.made().at(-1)?.member_id).toBe(sipho.id);
    expect([fake.credits, fake.users.get(sipho.id)?.credits]).toEqual([6, 3]);
  });

  it("manual mode refuses sub-resellers in words: they need a panel with API access", async () => {
    const error = await createManualPanel()
      .users?.()
      .catch((e: PanelError) => e);
    expect(error).toBeInstanceOf(PanelError);
    expect((error as PanelError).message).toBe(SUB_RESELLERS_NEED_API);
  });
});
