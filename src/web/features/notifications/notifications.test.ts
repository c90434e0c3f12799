import { describe, expect, it } from "vitest";
import type { Notice, Special } from "@/shared/api";
import { FIRST_RUN_FLAG, planNotifications } from "./first-run";
import { alertFor } from "./live-alerts";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe("first run of notifications (spec §4)", () => {
  it("prompts once: the first run sets the initialized flag, later visits do not prompt", () => {
    const storage = memoryStorage();
    expect(planNotifications({ permission: "default", storage })).toBe("prompt");
    expect(storage.items.get(FIRST_RUN_FLAG)).toBe("true");
    expect(planNotifications({ permission: "default", storage })).toBe("none");
  });

  it("listens on every visit once granted, and never prompts a browser that said no or has no notifications", () => {
    expect(planNotifications({ permission: "granted", storage: memoryStorage({ [FIRST_RUN_FLAG]: "true" }) })).toBe("listen");
    expect(planNotifications({ permission: "denied", storage: memoryStorage() })).toBe("none");
    expect(planNotifications({ permission: undefined, storage: memoryStorage() })).toBe("none");
  });

  it("does not prompt when storage is blocked", () => {
    const blocked = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {},
    };
    expect(planNotifications({ permission: "default", storage: blocked })).toBe("none");
  });
});

describe("alerts for new specials and notices", () => {
  const special: Special = {
    id: "sp1",
    package_name: "3 Months",
    original_price: 1650,
    special_price: 1450,
    title: "Save R200 on 3 Months",
    description: "Activated the same day.",
  };
  const notice: Notice = {
    id: "n1",
    title: "Planned maintenance tonight",
    body: "Streaming may pause for 10 minutes at 23:00.",
    severity: "info",
    audience: "all",
    starts_at: null,
    ends_at: null,
    created_at: "2026-11-22T10:00:00.000Z",
  };
  const get = (async (path: string) => {
    if (path === "/specials") return { data: [special] };
    if (path === "/notices") return { data: [notice] };
    throw new Error(path);
  }) as Parameters<typeof alertFor>[1];

  it("announces an inserted special with its prices, and an inserted notice with its text", async () => {
    expect(await alertFor({ table: "pricing_specials", op: "INSERT", id: "sp1" }, get)).toEqual({
      title: "Save R200 on 3 Months",
      body: "3 Months: now R1,450, was R1,650. Activated the same day.",
      url: "/pricing#pricing-packages",
      tag: "special-sp1",
    });
    expect(await alertFor({ table: "notices", op: "INSERT", id: "n1" }, get)).toMatchObject({
      title: "Planned maintenance tonight",
      body: "Streaming may pause for 10 minutes at 23:00.",
    });
  });

  it("stays quiet for updates, deletes, other tables and rows the public cannot see yet", async () => {
    expect(await alertFor({ table: "pricing_specials", op: "UPDATE", id: "sp1" }, get)).toBeNull();
    expect(await alertFor({ table: "notices", op: "DELETE", id: "n1" }, get)).toBeNull();
    expect(await alertFor({ table: "packages", op: "INSERT", id: "p1" }, get)).toBeNull();
    expect(await alertFor({ table: "pricing_specials", op: "INSERT", id: "future-special" }, get)).toBeNull();
  });
});
