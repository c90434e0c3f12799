// Gentle on the panel (issue 28, item 5), against the fake Xtream panel, which counts every call:
// panel reads (packages, user_info, get_lines) are kept for panel_cache_minutes and shared by the
// dashboard's views and the jobs; a line made drops the credits it charged; Refresh reads once,
// now; a failed read is not kept. The wrapper itself is also checked against the clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withReadCache } from "@/server/adapters/panel/cached";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import type { PanelAdapter } from "@/server/adapters/panel/panel";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { runPanelSync } from "./sync";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL: "http://localhost:8080", PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 500 },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const reads = () => ({
  packages: fake.callsOf("packages").length,
  user_info: fake.callsOf("user_info").length,
  // a whole listing (every page of it) starts at row 0; a search (findLine) is not one
  get_lines: fake.callsOf("get_lines").filter((c) => c.query.start === "0" && !c.query["search[value]"]).length,
});

describe("panel reads are kept and shared", () => {
  it("ten loads of the panel page (and the checklist beside them) read the panel's packages and credits once", async () => {
    const before = reads();
    for (let i = 0; i < 10; i++) {
      const view = await admin.call({ method: "GET", url: "/api/admin/panel" });
      expect(view.statusCode).toBe(200);
      expect(view.json()).toMatchObject({ connected: true, credits: 100, cache_minutes: 5 });
      expect(view.json().packages.length).toBeGreaterThan(0);
      expect(view.json().read_at).not.toBeNull();
      await admin.call({ method: "GET", url: "/api/admin/launch-checklist" });
    }
    const after = reads();
    expect(after.packages - before.packages).toBeLessThanOrEqual(2);
    expect(after.packages - before.packages).toBeGreaterThanOrEqual(1);
    expect(after.user_info - before.user_info).toBeLessThanOrEqual(2);
  });

  it("the nightly job and the dashboard share one get_lines read; 'Check now' (force) reads afresh", async () => {
    const before = reads().get_lines;
    await t.app.provisioning.panel.lines();
    await runPanelSync(t.app);
    expect(reads().get_lines - before).toBe(1);
    await runPanelSync(t.app, { force: true });
    expect(reads().get_lines - before).toBe(2);
  });

  it("Refresh reads the panel once, now: credits the panel changed behind our back show", async () => {
    await admin.call({ method: "GET", url: "/api/admin/panel" });
    fake.credits = 42;
    expect((await admin.call({ method: "GET", url: "/api/admin/panel" })).json().credits).toBe(100);
    const before = reads();
    const refreshed = await admin.call({ method: "POST", url: "/api/admin/panel/refresh" });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().credits).toBe(42);
    expect(reads().packages - before.packages).toBe(1);
    expect(reads().user_info - before.user_info).toBe(1);
    // and kept again after it
    await admin.call({ method: "GET", url: "/api/admin/panel" });
    expect(reads().packages - before.packages).toBe(1);
  });

  it("a panel that fails a read is not kept failing: the next load asks again", async () => {
    // user_info and packages each answer a failure once
    fake.failNext({ status: "STATUS_FAILURE", error: "busy" }, 2);
    const failing = await admin.call({ method: "POST", url: "/api/admin/panel/refresh" });
    expect(failing.json()).toMatchObject({ connected: false, read_at: null });
    const before = reads();
    const next = await admin.call({ method: "GET", url: "/api/admin/panel" });
    expect(next.json()).toMatchObject({ connected: true, error: null });
    expect(reads().packages - before.packages).toBe(1);
  });
});

describe("withReadCache", () => {
  function counting() {
    const calls: string[] = [];
    const inner: PanelAdapter = {
      mode: "xtream",
      userInfo: async () => {
        calls.push("userInfo");
        return { credits: calls.length };
      },
      packages: async () => {
        calls.push("packages");
        return [];
      },
      lines: async () => {
        calls.push("lines");
        return [];
      },
      createLine: async () => {
        calls.push("createLine");
        return { id: "1", username: "u", password: "p", expires_at: null, enabled: true, max_connections: 1 };
      },
      editLine: async () => {
        throw new Error("no");
      },
      enableLine: async () => {
        calls.push("enableLine");
      },
      disableLine: async () => {
        calls.push("disableLine");
      },
      findLine: async () => {
        calls.push("findLine");
        return null;
      },
      changeMac: async () => {
        calls.push("changeMac");
      },
      clearIspLock: async () => {
        calls.push("clearIspLock");
      },
    };
    return { inner, calls };
  }

  it("keeps each read for the time the setting gives, shares one in flight, and passes the mode through", async () => {
    const { inner, calls } = counting();
    let now = 1_000_000;
    let ttl = 5 * 60_000;
    const panel = withReadCache(
      inner,
      () => ttl,
      () => now,
    );
    expect(panel.mode).toBe("xtream");
    await Promise.all([panel.packages(), panel.packages(), panel.userInfo()]);
    expect(calls).toEqual(["packages", "userInfo"]);
    now += 4 * 60_000;
    await panel.packages();
    expect(calls).toEqual(["packages", "userInfo"]);
    now += 2 * 60_000;
    await panel.packages();
    expect(calls).toEqual(["packages", "userInfo", "packages"]);
    // a shorter setting applies at once
    ttl = 60_000;
    now += 61_000;
    await panel.packages();
    expect(calls.filter((c) => c === "packages")).toHaveLength(3);
  });

  it("a write drops the credits and lines it changed (not the packages), even when it fails", async () => {
    const { inner, calls } = counting();
    const panel = withReadCache(inner, () => 300_000);
    await Promise.all([panel.packages(), panel.userInfo(), panel.lines()]);
    await panel.createLine({ package: "1", trial: false, contact: "", notes: "" });
    await Promise.all([panel.packages(), panel.userInfo(), panel.lines()]);
    expect(calls).toEqual(["packages", "userInfo", "lines", "createLine", "userInfo", "lines"]);
    await expect(panel.editLine({ id: "1", package: "1" })).rejects.toThrow("no");
    await panel.userInfo();
    expect(calls.filter((c) => c === "userInfo")).toHaveLength(3);
  });

  it("never keeps a login lookup (findLine) and gives the ledger the panel itself (uncached)", async () => {
    const { inner, calls } = counting();
    const panel = withReadCache(inner, () => 300_000);
    await panel.userInfo();
    // a stale 'not there' would let a second line be made: each lookup asks the panel
    await panel.findLine("sd_abc");
    await panel.findLine("sd_abc");
    expect(calls.filter((c) => c === "findLine")).toHaveLength(2);
    // the balance before and after a charge is read now, whatever the dashboard keeps
    await panel.uncached().userInfo();
    await panel.uncached().userInfo();
    expect(calls.filter((c) => c === "userInfo")).toHaveLength(3);
    expect(panel.uncached()).toBe(inner);
  });

  it("refresh forgets everything; readAt says when packages and credits were read", async () => {
    const { inner, calls } = counting();
    let now = 5_000;
    const panel = withReadCache(
      inner,
      () => 300_000,
      () => now,
    );
    expect(panel.readAt()).toBeNull();
    await panel.packages();
    now = 6_000;
    await panel.userInfo();
    expect(panel.readAt()?.getTime()).toBe(5_000);
    panel.refresh();
    expect(panel.readAt()).toBeNull();
    await panel.packages();
    expect(calls.filter((c) => c === "packages")).toHaveLength(2);
  });
});
