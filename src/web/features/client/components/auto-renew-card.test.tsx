// The portal's "Renew automatically" switch (issue 44): on with the card and the consent shown;
// switching it off sends DELETE /api/client/auto-renew once and shows it off; never chosen: no card.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AutoRenewView } from "@/shared/auto-renew";
import { AutoRenewCard } from "./auto-renew-card";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const CONSENT =
  "We'll charge R650 to this card each month on the day before your line ends, and tell you 3 days before. Turn it off any time in your portal.";
const deletes: string[] = [];

function renderCard(state: AutoRenewView | null) {
  let current = state;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "DELETE") {
      deletes.push(String(input));
      current = current ? { ...current, enabled: false, ready: false } : null;
    }
    return new Response(JSON.stringify({ data: current }), { headers: { "content-type": "application/json" } });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rendered = render(
    <QueryClientProvider client={client}>
      <AutoRenewCard />
    </QueryClientProvider>,
  );
  return { ...rendered, client };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  deletes.length = 0;
});

describe("AutoRenewCard", () => {
  it("shows it on with the card and the consent; switching it off turns it off once", async () => {
    renderCard({ enabled: true, provider: "payfast", card: "card via PayFast", consent: CONSENT, consentAt: null, ready: true });
    const toggle = await screen.findByRole("switch", { name: "Renew automatically" });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("status").textContent).toBe(`On, card via PayFast. ${CONSENT}`);
    fireEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole("switch") as HTMLInputElement).checked).toBe(false));
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toContain("/api/client/auto-renew");
    expect(screen.getByRole("status").textContent).toContain("when you next pay by card");
    expect((screen.getByRole("switch") as HTMLInputElement).disabled).toBe(true);
  });

  it("shows nothing to a client who never chose it", async () => {
    const { container, client } = renderCard(null);
    // the server's answer (never chosen) is in, not still on its way
    await waitFor(() =>
      expect(
        client
          .getQueryCache()
          .getAll()
          .map((query) => query.state.status),
      ).toEqual(["success"]),
    );
    expect(container.textContent).toBe("");
    expect(deletes).toHaveLength(0);
  });
});
