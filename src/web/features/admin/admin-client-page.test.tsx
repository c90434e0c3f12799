// A client's page: the lifecycle's words for their status, the history of their term, granting
// complimentary time (months, days and a reason, checked by the shared schema), and what the
// Suspend dialog promises.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminClientDetail, LifecycleEvent, ProvisioningJob, RelatedClient } from "@/shared/business-schemas";
import { GRANT_LENGTH_MESSAGE, GRANT_REASON_MESSAGE } from "@/shared/business-schemas";
import { formatDate, formatDateTime } from "@/shared/dates";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, renderRoutes, waitFor } from "@/web/testing/render";
import { AdminClientPage } from "./admin-client-page";
import { fieldError, inputByLabel, shimSelectDefaults, stubApi, typeInto } from "./catalogue/components/test-helpers";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
shimSelectDefaults();

const DAY = 86_400_000;
const ID = "3f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d11";

const EVENTS: LifecycleEvent[] = [
  {
    id: "e2",
    cause: "complimentary-grant",
    label: "Complimentary time granted",
    reason: "Two days of buffering in March",
    actor: "owner@streamdesk.test",
    status_before: "active",
    status_after: "active",
    end_before: "2026-12-01T10:00:00.000Z",
    end_after: "2026-12-03T10:00:00.000Z",
    created_at: "2026-11-20T08:30:00.000Z",
  },
  {
    id: "e1",
    cause: "payment-captured",
    label: "Payment captured",
    reason: "",
    actor: "payment STRMDSK_42",
    status_before: "pending",
    status_after: "active",
    end_before: null,
    end_after: "2026-12-01T10:00:00.000Z",
    created_at: "2026-11-01T10:00:00.000Z",
  },
];

function client(overrides: Partial<AdminClientDetail> = {}): AdminClientDetail {
  const end = new Date(Date.now() + 20 * DAY).toISOString();
  return {
    id: ID,
    username: "thandi.n",
    full_name: "Thandi Nkosi",
    email: "thandi@example.test",
    whatsapp: "27821234567",
    communication_method: "whatsapp",
    marketing_opt_in: false,
    marketing_opt_in_at: null,
    package_id: null,
    package_name: "Month to Month",
    status: "active",
    subscription_start: new Date(Date.now() - 10 * DAY).toISOString(),
    subscription_end: end,
    device: "firestick",
    internet_platform: "fibre",
    line_username: "",
    line_password: "",
    line_portal_url: "",
    panel_line_id: null,
    line_expires_at: null,
    line_enabled: false,
    line_is_test: false,
    line_sync_issue: "",
    line_type: "m3u",
    line_mac: "",
    possible_duplicate_of: null,
    merged_into: null,
    related: null,
    flagged_duplicates: [],
    notes: "",
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    payments: [],
    leads: [],
    content_requests: [],
    messages: [],
    lifecycle: EVENTS,
    ...overrides,
  };
}

const routes = [{ path: "/admin/client/:clientId", Component: AdminClientPage }];
const body = () => document.body;
const openDialog = () =>
  waitFor(() => {
    const found = body().querySelector<HTMLElement>("[role=dialog]");
    if (!found) throw new Error("no dialog");
    return found;
  });

beforeEach(() => {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("a client's page", () => {
  it("lists every change of status and term: when, what, before → after, by whom and why", async () => {
    stubApi({ [`/api/admin/clients/${ID}`]: { body: { data: client() } } });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const history = await waitFor(() => {
      const caption = [...container.querySelectorAll("table caption")].find((c) => c.textContent?.includes("history"));
      if (!caption) throw new Error("no history table");
      return caption.closest("table") as HTMLTableElement;
    });
    // as a screen reader says it: the arrows are hidden, 'to' is spoken
    const spoken = (el: Element) => {
      const copy = el.cloneNode(true) as Element;
      for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
      return (copy.textContent ?? "").replace(/\s+/g, " ");
    };
    const rows = [...history.querySelectorAll("tbody tr")].map(spoken);
    expect(rows).toHaveLength(2);
    // newest first, as the server sent them
    expect(rows[0]).toContain("Complimentary time granted");
    expect(rows[0]).toContain("owner@streamdesk.test");
    expect(rows[0]).toContain("Two days of buffering in March");
    expect(rows[0]).toContain(`${formatDate("2026-12-01T10:00:00.000Z")} to ${formatDate("2026-12-03T10:00:00.000Z")}`);
    expect(rows[1]).toContain("Payment captured");
    expect(rows[1]).toContain("Pending payment to Active");
    expect(rows[1]).toContain("payment STRMDSK_42");
    // no Extend any more: time without money is a reasoned grant
    expect(() => getByRoleName(container, "button", "Extend")).toThrow();
    expect(getByRoleName(container, "button", "Grant complimentary time")).toBeTruthy();
  });

  it("says how the client renews when they chose automatic renewal: 'Auto-renew on, card via' the provider", async () => {
    stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: client() } },
      [`/api/admin/clients/${ID}/auto-renew`]: {
        body: { data: { enabled: true, provider: "x", card: "card via Kept Cards", consent: "", consentAt: null, ready: true } },
      },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    await waitFor(() => expect(container.textContent).toContain("Auto-renew on, card via Kept Cards"));
  });

  it("says what suspending does: signed out, only the suspended page, a payment does not lift it", async () => {
    stubApi({ [`/api/admin/clients/${ID}`]: { body: { data: client() } } });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    await click(await waitFor(() => getByRoleName(container, "button", "Suspend")));
    const dialog = await openDialog();
    expect(dialog.textContent).toContain("signed out of the client portal at once");
    expect(dialog.textContent).toContain("see only a page saying their account is suspended and how to reach you");
    expect(dialog.textContent).toContain("A payment adds time but doesn't lift the suspension");
  });

  it("shows a client in grace with the day their grace period runs to (grace_days from the settings)", async () => {
    const end = new Date(Date.now() - DAY).toISOString();
    stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: client({ status: "grace", subscription_end: end }) } },
      "/api/admin/settings": { body: { data: [{ id: "s1", key: "grace_days", value: "5", description: "", is_active: true }] } },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    await waitFor(() => expect(container.textContent).toContain(`Grace until ${formatDate(new Date(Date.parse(end) + 5 * DAY))}`));
    expect(container.querySelector("[data-status]")?.textContent).toBe("Grace period");
  });

  it("grants complimentary time: months, days and a reason, checked before it is sent", async () => {
    const before = client();
    const granted = { ...before, subscription_end: new Date(Date.parse(before.subscription_end ?? "") + 7 * DAY).toISOString() };
    const requests = stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: before } },
      [`POST /api/admin/clients/${ID}/grant`]: { body: { data: granted } },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    await click(await waitFor(() => getByRoleName(container, "button", "Grant complimentary time")));
    const dialog = await openDialog();

    // nothing filled in: a reason and some time are asked for, and nothing is sent
    await click(getByRoleName(dialog, "button", "Grant time"));
    await waitFor(() => expect(fieldError(inputByLabel(dialog, "Reason"))).toBe(GRANT_REASON_MESSAGE));
    expect(fieldError(inputByLabel(dialog, "Days"))).toBe(GRANT_LENGTH_MESSAGE);
    expect(requests.some((r) => r.method === "POST")).toBe(false);

    await typeInto(inputByLabel(dialog, "Days"), "7");
    await typeInto(inputByLabel<HTMLTextAreaElement>(dialog, "Reason"), "Line was down for a week");
    // where the term will end, by the lifecycle's own rule: added to the running term's end
    expect(dialog.textContent).toContain(`Their term will run to ${formatDate(granted.subscription_end)}`);
    await click(getByRoleName(dialog, "button", "Grant time"));
    await waitFor(() =>
      expect(requests.find((r) => r.method === "POST")?.body).toEqual({ months: 0, days: 7, reason: "Line was down for a week" }),
    );
    await waitFor(() => expect(body().querySelector("[role=dialog]")).toBeNull());
  });

  it("puts the server's field errors on the grant form's fields", async () => {
    const requests = stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: client() } },
      [`POST /api/admin/clients/${ID}/grant`]: {
        status: 400,
        body: { error: { code: "invalid", message: "At most 24 months at a time", fields: { months: "At most 24 months at a time" } } },
      },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    await click(await waitFor(() => getByRoleName(container, "button", "Grant complimentary time")));
    const dialog = await openDialog();
    await typeInto(inputByLabel(dialog, "Months"), "2");
    await typeInto(inputByLabel<HTMLTextAreaElement>(dialog, "Reason"), "Loyal client");
    await click(getByRoleName(dialog, "button", "Grant time"));
    await waitFor(() => expect(fieldError(inputByLabel(dialog, "Months"))).toBe("At most 24 months at a time"));
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("shows the line as the panel reported it: login (password hidden until asked), TEST LINE, on or off, the sync issue and this client's panel jobs", async () => {
    const job = (id: string, clientId: string, action: ProvisioningJob["action"], status: ProvisioningJob["status"]): ProvisioningJob => ({
      id,
      client_id: clientId,
      client_full_name: clientId === ID ? "Thandi Nkosi" : "Someone Else",
      client_username: "x",
      action,
      package_name: "Month to Month",
      trial: false,
      status,
      attempts: 1,
      next_attempt_at: "2026-11-22T08:00:00.000Z",
      error_status: status === "failed" ? "TIMEOUT" : "",
      last_error: status === "failed" ? "The panel did not answer in time." : "",
      panel_answer: "",
      instruction: "",
      needs_login: false,
      done_at: status === "done" ? "2026-11-22T08:00:01.000Z" : null,
      created_at: "2026-11-22T08:00:00.000Z",
    });
    stubApi({
      [`/api/admin/clients/${ID}`]: {
        body: {
          data: client({
            line_username: "test7k2m9q",
            line_password: "pw4Zt8Qe",
            line_portal_url: "http://sandbox-panel.invalid:8080",
            panel_line_id: "4d0c",
            line_expires_at: "2026-12-22T10:00:00.000Z",
            line_enabled: false,
            line_is_test: true,
            line_sync_issue: "The panel has the line switched off; here it is active.",
          }),
        },
      },
      "/api/admin/provisioning": {
        body: {
          data: [
            job("j3", ID, "extend_line", "failed"),
            job("j2", "someone-else", "create_line", "done"),
            job("j1", ID, "create_line", "done"),
          ],
        },
      },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const card = await waitFor(() => {
      const found = container.querySelector<HTMLElement>("[data-testid=line-card]");
      if (!found) throw new Error("no line card");
      return found;
    });
    expect(card.querySelector("[data-testid=test-line]")?.textContent).toBe("Test line");
    expect(card.textContent).toContain("Switched off");
    expect(card.querySelector("[role=alert]")?.textContent).toContain("The panel has the line switched off; here it is active.");
    expect(card.textContent).toContain("test7k2m9q");
    expect(card.textContent).toContain("http://sandbox-panel.invalid:8080");
    expect(card.textContent).toContain(formatDateTime("2026-12-22T10:00:00.000Z"));
    expect(card.textContent).not.toContain("pw4Zt8Qe");
    await click(card.querySelector('button[aria-label="Show line password"]'));
    expect(card.querySelector("[data-testid=line-password]")?.textContent).toBe("pw4Zt8Qe");
    // only this client's jobs, newest first
    const jobs = await waitFor(() => {
      const rows = [...card.querySelectorAll("[data-job]")].map((el) => el.getAttribute("data-job"));
      if (!rows.length) throw new Error("no jobs yet");
      return rows;
    });
    expect(jobs).toEqual(["j3", "j1"]);
    expect(card.textContent).toContain("The panel did not answer in time.");
  });
});

describe("a possible duplicate (issue 24)", () => {
  const KEPT = "9a9b7f3a-1c55-4c36-9a1e-3f1f9b0c2d99";
  const other: RelatedClient = {
    id: KEPT,
    username: "thandi",
    full_name: "Thandi Mokoena",
    whatsapp: "27821234567",
    email: "someone@example.test",
    status: "active",
    subscription_end: "2026-12-22T10:00:00.000Z",
  };
  const flagged = () => client({ possible_duplicate_of: KEPT, related: other });
  const routesWithKept = [...routes, { path: `/admin/client/${KEPT}`, Component: () => <p>The kept client's page</p> }];
  const banner = (container: HTMLElement) =>
    waitFor(() => {
      const found = [...container.querySelectorAll<HTMLElement>("[role=status]")].find((el) =>
        el.textContent?.includes("Possible duplicate of"),
      );
      if (!found) throw new Error("no banner");
      return found;
    });

  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
  });

  it("shows who they may be, what matched, why, and a link to the other client", async () => {
    stubApi({ [`/api/admin/clients/${ID}`]: { body: { data: flagged() } } });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const found = await banner(container);
    expect(found.querySelector("h2")?.textContent).toBe("Possible duplicate of Thandi Mokoena (thandi)");
    expect(found.textContent).toContain("Matched on the same WhatsApp number.");
    expect(found.textContent).not.toContain("same e-mail address");
    expect(found.textContent).toContain(
      "This account was made by a payment whose payer gave Thandi Mokoena's number or e-mail but did not prove it was them.",
    );
    expect(getByRoleName(found, "link", "Open Thandi Mokoena's page").getAttribute("href")).toBe(`/admin/client/${KEPT}`);
    expect(getByRoleName(found, "button", "Merge into thandi")).toBeTruthy();
    expect(getByRoleName(found, "button", "Not the same person")).toBeTruthy();
  });

  it("merges after a confirmation that says what moves, posts to the flagged client's merge and opens the kept client", async () => {
    const requests = stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: flagged() } },
      [`POST /api/admin/clients/${ID}/merge`]: {
        body: { data: { kept: { ...client(), id: KEPT, full_name: "Thandi Mokoena" }, merged: { ...client(), merged_into: KEPT } } },
      },
    });
    const { rendered, router } = renderRoutes(routesWithKept, `/admin/client/${ID}`);
    const { container } = await rendered;
    await click(getByRoleName(await banner(container), "button", "Merge into thandi"));
    const dialog = await openDialog();
    expect(dialog.textContent).toContain("payments, invoices, credit notes and messages move to Thandi Mokoena");
    expect(dialog.textContent).toContain("added to Thandi Mokoena's term, through the lifecycle");
    expect(dialog.textContent).toContain("Thandi Mokoena's line stays");
    expect(dialog.textContent).toContain("This can't be undone.");
    expect(requests.some((r) => r.method === "POST")).toBe(false);
    await click(getByRoleName(dialog, "button", "Merge into thandi"));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/client/${KEPT}`));
    expect(requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([`/api/admin/clients/${ID}/merge`]);
    await waitFor(() => expect(container.textContent).toContain("The kept client's page"));
  });

  it("shows a refused merge's message in a toast and stays", async () => {
    stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: flagged() } },
      [`POST /api/admin/clients/${ID}/merge`]: {
        status: 409,
        body: { error: { code: "conflict", message: "This client was already merged." } },
      },
    });
    const { rendered, router } = renderRoutes(routesWithKept, `/admin/client/${ID}`);
    const { container } = await rendered;
    await click(getByRoleName(await banner(container), "button", "Merge into thandi"));
    await click(getByRoleName(await openDialog(), "button", "Merge into thandi"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Not merged", { description: "This client was already merged." }));
    expect(router.state.location.pathname).toBe(`/admin/client/${ID}`);
  });

  it("dismisses the flag with Not the same person; a refusal's message goes to a toast", async () => {
    const sameNumber = "Both clients have the same WhatsApp number: change one first.";
    let calls = 0;
    const requests = stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: flagged() } },
      [`POST /api/admin/clients/${ID}/dismiss-duplicate`]: () => {
        calls += 1;
        return calls === 1
          ? { status: 409, body: { error: { code: "conflict", message: sameNumber, fields: { whatsapp: sameNumber } } } }
          : { body: { data: client() } };
      },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const found = await banner(container);
    await click(getByRoleName(found, "button", "Not the same person"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Flag not removed", { description: sameNumber }));
    await click(getByRoleName(found, "button", "Not the same person"));
    await waitFor(() => expect(requests.filter((r) => r.method === "POST")).toHaveLength(2));
    expect(requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      `/api/admin/clients/${ID}/dismiss-duplicate`,
      `/api/admin/clients/${ID}/dismiss-duplicate`,
    ]);
  });

  it("a merged client says where it went, with a link, and offers no merge or dismiss", async () => {
    stubApi({
      [`/api/admin/clients/${ID}`]: { body: { data: client({ possible_duplicate_of: KEPT, merged_into: KEPT, related: other }) } },
    });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const found = await waitFor(() => {
      const el = container.querySelector<HTMLElement>("[role=status]");
      if (!el?.textContent?.includes("Merged into")) throw new Error("no merged banner");
      return el;
    });
    expect(found.querySelector("h2")?.textContent).toBe("Merged into Thandi Mokoena (thandi)");
    expect(found.querySelector("a")?.getAttribute("href")).toBe(`/admin/client/${KEPT}`);
    expect(container.textContent).not.toContain("Possible duplicate of");
    expect(() => getByRoleName(container, "button", "Merge into thandi")).toThrow();
    expect(() => getByRoleName(container, "button", "Not the same person")).toThrow();
  });

  it("the kept client lists the clients flagged as possibly them, with links", async () => {
    const dup: RelatedClient = { ...other, id: "d1", username: "thandi2", full_name: "T Mokoena" };
    stubApi({ [`/api/admin/clients/${ID}`]: { body: { data: client({ flagged_duplicates: [dup] }) } } });
    const { rendered } = renderRoutes(routes, `/admin/client/${ID}`);
    const { container } = await rendered;
    const link = await waitFor(() => getByRoleName(container, "link", "T Mokoena (thandi2)"));
    expect(link.getAttribute("href")).toBe("/admin/client/d1");
    expect(link.closest("section")?.querySelector("h2")?.textContent).toBe("Possible duplicates");
  });
});
