// The Xtream-family reseller API adapter against our fake panel: the protocol (key and action
// in the query, form-encoded writes), every STATUS_* answer mapped to the owner's words, answers
// that are not JSON, and which failures may be sent again.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_EXISTING, type FakeXtreamPanel, startFakeXtreamPanel } from "./fake-xtream";
import { PanelError } from "./panel";
import { createXtreamPanel } from "./xtream";

let fake: FakeXtreamPanel;
beforeAll(async () => {
  fake = await startFakeXtreamPanel({ apiKey: "k-secret-42", credits: 5 });
});
afterAll(async () => {
  await fake?.close();
});

const panel = () => createXtreamPanel({ apiUrl: fake.url, apiKey: "k-secret-42", timeoutMs: 300, retryDelaysMs: [1, 1] });

describe("the reseller API", () => {
  it("reads credits and packages, creates, extends, disables and enables a line", async () => {
    const p = panel();
    expect(await p.userInfo()).toEqual({ credits: 5 });
    expect((await p.packages()).slice(0, 3).map((x) => [x.id, x.official_duration, x.official_duration_in, x.is_trial])).toEqual([
      ["1", 1, "months", false],
      ["3", 3, "months", false],
      ["9", 0, "months", true],
    ]);
    const line = await p.createLine({ package: "1", trial: false, contact: "Nomsa, +27821234567", notes: "StreamDesk client nomsa.d" });
    expect(line).toMatchObject({ username: expect.any(String), password: expect.any(String), enabled: true });
    expect(line.expires_at?.getTime()).toBeGreaterThan(Date.now());
    expect(fake.callsOf("create_line")[0]).toMatchObject({
      method: "POST",
      form: { package: "1", trial: "0", contact: "Nomsa, +27821234567" },
    });
    const extended = await p.editLine({ id: line.id, package: "1" });
    expect(extended.expires_at?.getTime()).toBeGreaterThan(line.expires_at?.getTime() ?? 0);
    await p.disableLine(line.id);
    expect(fake.lines.get(line.id)?.enabled).toBe(false);
    await p.enableLine(line.id);
    expect(fake.lines.get(line.id)?.enabled).toBe(true);
    expect((await p.lines()).map((l) => l.id)).toContain(line.id);
  });

  it.each([
    ["STATUS_INSUFFICIENT_CREDITS", "not enough credits", false],
    ["STATUS_NO_TRIALS", "trial allowance", false],
    ["STATUS_INVALID_PACKAGE", "package mapping", false],
    ["STATUS_EXISTS_USERNAME", "already exists", false],
    ["STATUS_FAILURE", "tried again", true],
  ])("%s → the owner's words (%s), retryable %s", async (status, words, retryable) => {
    fake.failNext({ status });
    const error = (await panel()
      .createLine({ package: "1", trial: false, contact: "", notes: "" })
      .catch((e) => e)) as PanelError;
    expect(error).toBeInstanceOf(PanelError);
    expect(error.status).toBe(status);
    expect(error.message).toContain(words);
    expect(error.retryable).toBe(retryable);
    expect(error.answer).toContain(status);
  });

  it("an unknown status or an answer that is not JSON is a failure with the raw answer kept, the key masked", async () => {
    fake.failNext({ status: "STATUS_WEIRD", error: "key k-secret-42 rejected" });
    const weird = (await panel()
      .userInfo()
      .catch((e) => e)) as PanelError;
    expect(weird).toMatchObject({ status: "STATUS_WEIRD", retryable: false });
    expect(weird.message).not.toContain("k-secret-42");
    expect(weird.answer).not.toContain("k-secret-42");
    fake.failNext("<html>nginx</html>");
    expect(
      await panel()
        .userInfo()
        .catch((e) => e),
    ).toMatchObject({ status: "BAD_ANSWER", answer: "<html>nginx</html>" });
  });

  it("reads a real reseller's panel whole: 2,200 lines a page of 1,000 at a time, 47 packages, nothing cut", async () => {
    const listed = await panel().lines();
    const existing = FAKE_EXISTING.m3u + FAKE_EXISTING.mag + FAKE_EXISTING.enigma2;
    expect(existing).toBeGreaterThanOrEqual(2_000);
    // every line the panel holds (the one the first test made too), each once
    expect(listed.length).toBe(fake.lines.size);
    expect(new Set(listed.map((l) => `${l.type}:${l.id}`)).size).toBe(listed.length);
    expect(listed.filter((l) => l.type === "mag")).toHaveLength(FAKE_EXISTING.mag);
    expect(listed.filter((l) => l.type === "enigma2")).toHaveLength(FAKE_EXISTING.enigma2);
    // pages as XC_VM pages: start 0, 1000, 2000 of at most 1,000 rows, and no page past recordsTotal
    const pages = fake.callsOf("get_lines").filter((c) => !c.query["search[value]"]);
    expect(pages.slice(-3).map((c) => [c.query.start, c.query.limit])).toEqual([
      ["0", "1000"],
      ["1000", "1000"],
      ["2000", "1000"],
    ]);
    const packages = await panel().packages();
    expect(packages.length).toBeGreaterThanOrEqual(40);
    expect(packages.find((p) => p.name === "Full 12 Months 4 Screens")?.bouquets.length).toBe(60);
  });

  it("an answer cut off, not JSON, of the wrong shape or too large is a BAD_ANSWER naming the action and its size", async () => {
    const cutOff = '{"status":"STATUS_SUCCESS","data":[{"id":"1","package_name":"1 Mon';
    fake.failNext(cutOff);
    const cut = (await panel()
      .packages()
      .catch((e) => e)) as PanelError;
    expect(cut).toMatchObject({ status: "BAD_ANSWER", retryable: false });
    expect(cut.message).toBe(`The panel's answer to packages (HTTP 200, ${cutOff.length} bytes) is not JSON: it is cut off or broken.`);
    expect(cut.answer).toBe(cutOff);

    fake.failNext("<html>Bad gateway</html>");
    expect(
      await panel()
        .userInfo()
        .catch((e) => (e as PanelError).message),
    ).toBe("The panel's answer to user_info (HTTP 200, 24 bytes) is not JSON.");

    fake.failNext("[1,2,3]");
    expect(
      await panel()
        .userInfo()
        .catch((e) => (e as PanelError).message),
    ).toBe("The panel's answer to user_info (7 bytes) is not the reseller API's shape.");

    const small = createXtreamPanel({ apiUrl: fake.url, apiKey: "k-secret-42", timeoutMs: 2_000, maxAnswerBytes: 100_000 });
    const large = (await small.lines().catch((e) => e)) as PanelError;
    expect(large).toMatchObject({ status: "BAD_ANSWER", retryable: false });
    expect(large.message).toBe("The panel's answer to get_lines is larger than 100,000 bytes: not read.");
  });

  it("a panel that ignores start (the same page again) stops the listing with an error, not a loop", async () => {
    fake.ignoreStart = true;
    try {
      const before = fake.callsOf("get_lines").length;
      const error = (await panel()
        .lines()
        .catch((e) => e)) as PanelError;
      expect(error).toMatchObject({ status: "BAD_ANSWER", retryable: false });
      expect(error.message).toBe("The panel answered the same page of get_lines again at row 1,000: it does not page (start is ignored).");
      expect(fake.callsOf("get_lines").length - before).toBe(2);
    } finally {
      fake.ignoreStart = false;
    }
  });

  it("a wrong key is refused in the panel's words", async () => {
    const wrong = createXtreamPanel({ apiUrl: fake.url, apiKey: "guess", timeoutMs: 300 });
    expect(await wrong.userInfo().catch((e) => e)).toMatchObject({ status: "STATUS_FAILURE" });
  });

  it("retries a read on a network error, but not a write that timed out", async () => {
    // A port where nothing listens: the connection is refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = createXtreamPanel({ apiUrl: `http://127.0.0.1:${port}/x`, apiKey: "k", timeoutMs: 300, retryDelaysMs: [1, 1] });
    expect(await down.userInfo().catch((e) => e)).toMatchObject({ status: "NETWORK", retryable: true });
    // A refused write never reached the panel: safe to send again.
    expect(await down.createLine({ package: "1", trial: false, contact: "", notes: "" }).catch((e) => e)).toMatchObject({
      status: "NETWORK",
      retryable: true,
    });

    fake.delayMs = 600;
    try {
      const before = fake.callsOf("create_line").length;
      const timedOut = (await panel()
        .createLine({ package: "1", trial: false, contact: "", notes: "" })
        .catch((e) => e)) as PanelError;
      expect(timedOut).toMatchObject({ status: "TIMEOUT", retryable: false });
      expect(fake.callsOf("create_line").length).toBe(before + 1);
      const reads = fake.callsOf("user_info").length;
      expect(
        await panel()
          .userInfo()
          .catch((e) => e),
      ).toMatchObject({ status: "TIMEOUT", retryable: true });
      expect(fake.callsOf("user_info").length).toBe(reads + 3);
    } finally {
      fake.delayMs = 0;
    }
  });
});
