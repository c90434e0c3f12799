import { describe, expect, it } from "vitest";
import { auditDiff, showValue } from "./audit-diff";

describe("auditDiff", () => {
  it("lists only the fields an update changed, leaving updated_at out", () => {
    const before = { id: "n1", title: "Old", body: "Same", is_active: true, updated_at: "2026-11-22T06:00:00Z" };
    const after = { id: "n1", title: "New", body: "Same", is_active: false, updated_at: "2026-11-22T07:00:00Z" };
    expect(auditDiff(before, after)).toEqual([
      { field: "title", before: "Old", after: "New" },
      { field: "is_active", before: "true", after: "false" },
    ]);
  });

  it("shows every field of a create as added and of a delete as removed", () => {
    expect(auditDiff(null, { title: "Hello", tags: ["a"] })).toEqual([
      { field: "title", before: null, after: "Hello" },
      { field: "tags", before: null, after: '["a"]' },
    ]);
    expect(auditDiff({ email: "x@example.co.za" }, null)).toEqual([{ field: "email", before: "x@example.co.za", after: null }]);
  });

  it("handles entries without before or after (a password change)", () => {
    expect(auditDiff(null, null)).toEqual([]);
  });

  it("shows moments in South African time, not raw UTC strings (22:30 UTC is 00:30 the next day in SAST)", () => {
    expect(auditDiff({ subscription_end: "2026-11-22T22:30:00.000Z" }, { subscription_end: "2026-12-22T22:30:00+00:00" })).toEqual([
      { field: "subscription_end", before: "23 Nov 2026, 00:30 SAST", after: "23 Dec 2026, 00:30 SAST" },
    ]);
    // a plain date or any other text is left as it is
    expect(showValue("2026-11-22")).toBe("2026-11-22");
  });
});
