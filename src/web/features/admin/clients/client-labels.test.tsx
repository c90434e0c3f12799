// The lifecycle's statuses in the dashboard's words: a trial reads TRIAL to its end (never
// 'expiring'), a paid term ending within a week reads expiring, grace names its last day.
import { afterEach, describe, expect, it } from "vitest";
import { formatDate } from "@/shared/dates";
import { cleanup, render } from "@/web/testing/render";
import { clientStatusOptions, daysLeftText, SubscriptionBadge } from "./client-labels";

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

afterEach(cleanup);

describe("SubscriptionBadge", () => {
  it.each([
    ["pending", null, "Pending payment"],
    ["trial", inDays(0.5), "Trial"],
    ["active", inDays(30), "Active"],
    ["active", inDays(3), "Expiring"],
    ["grace", inDays(-1), "Grace period"],
    ["expired", inDays(-10), "Expired"],
    ["suspended", inDays(30), "Suspended"],
  ])("%s ending %s reads %s", async (status, end, label) => {
    const { container } = await render(<SubscriptionBadge client={{ status, subscription_end: end }} />);
    expect(container.textContent).toBe(label);
  });
});

describe("the status filter and the end column", () => {
  it("filters by all six statuses", () => {
    expect(clientStatusOptions.map((o) => o.value)).toEqual(["pending", "trial", "active", "grace", "expired", "suspended"]);
  });

  it("a client in grace shows the day their grace ends", () => {
    const end = inDays(-1);
    expect(daysLeftText({ status: "grace", subscription_end: end }, { graceDays: 3 })).toBe(
      `Grace until ${formatDate(new Date(Date.parse(end) + 3 * DAY))}`,
    );
    expect(daysLeftText({ status: "active", subscription_end: inDays(12.5) }, { graceDays: 3 })).toBe("13 days left");
    expect(daysLeftText({ status: "expired", subscription_end: inDays(-5) }, { graceDays: 3 })).toBe("Ended");
    expect(daysLeftText({ status: "pending", subscription_end: null }, { graceDays: 3 })).toBe("");
  });
});
