// The payments list's Refund filter: the owner's digest links /admin/payments?refund=held, and the
// list asks the server for the payments whose refund a provider has not confirmed.
import { act, fireEvent } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, stubFetch, waitFor } from "@/web/testing/render";
import { renderWithClient } from "../catalogue/components/test-helpers";
import { PaymentsSection } from "./payments-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let calls: string[];
beforeEach(() => {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
  const stub = stubFetch({
    "/admin/payments": { body: { data: [], total: 0 } },
    "/payments/methods": { body: { data: { card: "sandbox", eft: true } } },
  });
  vi.stubGlobal("fetch", stub.fetch);
  calls = stub.calls;
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const listCalls = () => calls.filter((call) => call.startsWith("/admin/payments?"));
const refundSelect = (container: HTMLElement) => {
  const label = [...container.querySelectorAll("label")].find((l) => l.textContent?.trim() === "Refund");
  return container.querySelector<HTMLSelectElement>(`#${CSS.escape(label?.htmlFor ?? "")}`);
};

describe("the payments list's Refund filter", () => {
  it("choosing 'Held, awaiting the provider' asks the server for held refunds only", async () => {
    const { container } = await renderWithClient(<PaymentsSection />, "/admin/payments");
    const select = await waitFor(() => refundSelect(container) ?? Promise.reject(new Error("no Refund filter")));
    expect([...select.options].map((o) => o.text)).toEqual(["All", "Held, awaiting the provider"]);
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    expect(listCalls().some((call) => call.includes("refund="))).toBe(false);
    await act(async () => {
      fireEvent.change(select, { target: { value: "held" } });
    });
    await waitFor(() => expect(listCalls().some((call) => new URLSearchParams(call.split("?")[1]).get("refund") === "held")).toBe(true));
  });

  it("the digest's link opens the list with the filter chosen", async () => {
    const { container } = await renderWithClient(<PaymentsSection />, "/admin/payments?refund=held");
    const select = await waitFor(() => refundSelect(container) ?? Promise.reject(new Error("no Refund filter")));
    expect(select.value).toBe("held");
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    expect(listCalls().every((call) => new URLSearchParams(call.split("?")[1]).get("refund") === "held")).toBe(true);
  });
});
