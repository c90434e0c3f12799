// The overview's launch checklist: each item with its reason and the page where it is set, the
// count still to do, and nothing at all once every item is done.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LaunchChecklist as Checklist } from "@/shared/business-schemas";
import { cleanup, waitFor } from "@/web/testing/render";
import { renderWithClient, stubApi } from "../catalogue/components/test-helpers";
import { useLaunchChecklist } from "./api/get-launch-checklist";
import { LaunchChecklist } from "./launch-checklist";

const LIST: Checklist = {
  done: false,
  items: [
    {
      key: "bank",
      label: "Bank details for EFT",
      done: false,
      why: "Customers are offered card only until the account type is filled in.",
      href: "/admin/settings",
    },
    {
      key: "email_delivery",
      label: "Outgoing e-mail",
      done: true,
      why: "SMTP is set and the last e-mail went out.",
      href: "/admin/outbox",
    },
    { key: "stream_url", label: "Stream server URL", done: false, why: "No stream server is set.", href: "/admin/panel" },
  ],
};

/** Marks the moment the checklist's answer reaches the components that read it. */
function AnswerShown() {
  const { data } = useLaunchChecklist();
  return data ? <span data-testid="answer-shown" /> : null;
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("LaunchChecklist", () => {
  it("lists each item with why, linking to where it is set, and counts what is left", async () => {
    stubApi({ "/api/admin/launch-checklist": { body: LIST } });
    await renderWithClient(<LaunchChecklist />, "/admin");
    const section = await waitFor(() => {
      const found = document.querySelector<HTMLElement>("[data-testid=launch-checklist]");
      if (!found) throw new Error("no checklist");
      return found;
    });
    expect(section.textContent).toContain("2 of 3 still to do");
    const bank = section.querySelector<HTMLElement>('[data-item="bank"]');
    expect(bank?.getAttribute("data-done")).toBe("false");
    expect(bank?.textContent).toContain("Customers are offered card only until the account type is filled in.");
    expect(bank?.querySelector("a")?.getAttribute("href")).toBe("/admin/settings");
    expect(section.querySelector('[data-item="email_delivery"]')?.textContent).toContain("(done)");
    expect(section.querySelector('[data-item="stream_url"] a')?.getAttribute("href")).toBe("/admin/panel");
  });

  it("shows nothing once every item is done", async () => {
    stubApi({
      "/api/admin/launch-checklist": { body: { done: true, items: LIST.items.map((i) => ({ ...i, done: true })) } },
    });
    const { container } = await renderWithClient(
      <>
        <LaunchChecklist />
        <AnswerShown />
      </>,
      "/admin",
    );
    // The answer has reached the page (the checklist reads the same query, in the same render)…
    await waitFor(() => expect(container.querySelector("[data-testid=answer-shown]")).not.toBeNull());
    // …and drew no checklist.
    expect(container.querySelector("[data-testid=launch-checklist]")).toBeNull();
  });
});
