// What each lifecycle change asks of the panel (pure): one row per cause and situation.
import { describe, expect, it } from "vitest";
import type { Cause } from "@/shared/lifecycle";
import { planPanelWork } from "./provisioning";

const client = (status: string, line: boolean, enabled = true) => ({
  id: "c1",
  status,
  panel_line_id: line ? "L1" : null,
  line_enabled: enabled,
  package_id: "p1",
  package_name: "3 Months",
});
const paid: Cause = { kind: "payment-captured", months: 3 };
const pkg = { id: "p3", name: "3 Months" };

describe("planPanelWork", () => {
  it.each([
    ["a first payment makes the line", client("pending", false), client("active", false), paid, [{ action: "create_line", package: pkg }]],
    [
      "a renewal extends the line with the package paid for",
      client("active", true),
      client("active", true),
      paid,
      [{ action: "extend_line", package: pkg }],
    ],
    [
      "paying after expiry extends, then switches the line back on",
      client("expired", true, false),
      client("active", true, false),
      paid,
      [{ action: "extend_line", package: pkg }, { action: "enable_line" }],
    ],
    [
      "a suspended client's payment extends but leaves the line off",
      client("suspended", true, false),
      client("suspended", true, false),
      paid,
      [{ action: "extend_line", package: pkg }],
    ],
    ["a suspended client with no line gets none until reactivated", client("suspended", false), client("suspended", false), paid, []],
    [
      "a trial makes a trial line",
      client("pending", false),
      client("trial", false),
      { kind: "trial-started", hours: 24 },
      [{ action: "create_line", trial: true, package: { id: null, name: "Free trial" } }],
    ],
    [
      "suspension switches the line off",
      client("active", true),
      client("suspended", true),
      { kind: "admin-suspend" },
      [{ action: "disable_line" }],
    ],
    [
      "reactivation switches it on",
      client("suspended", true, false),
      client("active", true, false),
      { kind: "admin-reactivate" },
      [{ action: "enable_line" }],
    ],
    [
      "reactivation into expired leaves it off",
      client("suspended", true, false),
      client("expired", true, false),
      { kind: "admin-reactivate" },
      [],
    ],
    [
      "reactivation of a client who paid while suspended makes the line",
      client("suspended", false),
      client("active", false),
      { kind: "admin-reactivate" },
      [{ action: "create_line", package: { id: "p1", name: "3 Months" } }],
    ],
    ["a paid term ending into grace keeps the line on", client("active", true), client("grace", true), { kind: "term-ended" }, []],
    [
      "a trial that ends switches its line off",
      client("trial", true),
      client("expired", true),
      { kind: "term-ended" },
      [{ action: "disable_line" }],
    ],
    [
      "grace running out switches it off",
      client("grace", true),
      client("expired", true),
      { kind: "grace-ended" },
      [{ action: "disable_line" }],
    ],
    [
      "a grant to an expired client switches the line back on",
      client("expired", true, false),
      client("active", true, false),
      { kind: "complimentary-grant", days: 7 },
      [{ action: "enable_line" }],
    ],
    [
      "a line the owner typed in by hand (no panel id) is never replaced by a new one",
      { ...client("active", false), line_username: "typed.by.hand" },
      client("active", false),
      paid,
      [],
    ],
    [
      "a grant to a running client asks nothing of the panel",
      client("active", true),
      client("active", true),
      { kind: "complimentary-grant", days: 7 },
      [],
    ],
  ] as const)("%s", (_rule, before, after, cause, expected) => {
    expect(planPanelWork(before, after, cause as Cause, cause.kind === "payment-captured" ? pkg : undefined)).toEqual(expected);
  });
});
