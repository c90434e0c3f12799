// The portal's "Renew automatically" switch (issue 44): on with the card and the consent shown;
// switching it off sends DELETE /api/client/auto-renew once and shows it off; never chosen: no card.
// "Use another card" (only while on, where the provider can keep a new card) posts once and leaves
// for the checkout the server answers.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AutoRenewView } from "@/shared/auto-renew";
import { AutoRenewCard } from "./auto-renew-card";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const goToCheckout = vi.hoisted(() => vi.fn());
vi.mock("./checkout", () => ({ goToCheckout }));

const CONSENT =
  "We'll charge R650 to this card each month on the day before your line ends, and tell you 3 days before. Turn it off any time in your portal.";
const deletes: string[] = [];
const posts: string[] = [];
const CHECKOUT = "https://shop.example.co.za/api/payments/checkout/STRMDSK_1";

function renderCard(state: AutoRenewView | null) {
  let current = state;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "DELETE") {
      deletes.push(String(input));
      current = current ? { ...current, enabled: false, ready: false, canChangeCard: false } : null;
    }
    if (init?.method === "POST") {
      posts.push(String(input));
      return new Response(JSON.stringify({ data: { url: CHECKOUT, reference: "STRMDSK_1" } }), {
        status: 201,
        headers: { "content-type": "application/json" },
      });
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
  posts.length = 0;
  goToCheckout.mockClear();
});

describe("AutoRenewCard", () => {
  it("shows it on with the card and the consent; switching it off turns it off once", async () => {
    renderCard({
      enabled: true,
      provider: "payfast",
      card: "card via PayFast",
      consent: CONSENT,
      consentAt: null,
      ready: true,
      canChangeCard: true,
    });
    const toggle = await screen.findByRole("switch", { name: "Renew automatically" });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("status").textContent).toBe(`On, card via PayFast. ${CONSENT}`);
    fireEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole("switch") as HTMLInputElement).checked).toBe(false));
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toContain("/api/client/auto-renew");
    expect(screen.getByRole("status").textContent).toContain("when you next pay by card");
    expect((screen.getByRole("switch") as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole("button", { name: "Use another card" })).toBeNull();
  });

  it("'Use another card' starts the card-saving checkout once and leaves for the page the server answers", async () => {
    renderCard({
      enabled: true,
      provider: "payfast",
      card: "card via PayFast",
      consent: CONSENT,
      consentAt: null,
      ready: true,
      canChangeCard: true,
    });
    fireEvent.click(await screen.findByRole("button", { name: "Use another card" }));
    await waitFor(() => expect(goToCheckout).toHaveBeenCalledWith(CHECKOUT));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toContain("/api/client/auto-renew/card");
    expect(deletes).toHaveLength(0);
  });

  it("offers no 'Use another card' where the provider cannot keep a new card that way", async () => {
    renderCard({
      enabled: true,
      provider: "paystack",
      card: "Visa ending 4081 via Paystack",
      consent: CONSENT,
      consentAt: null,
      ready: true,
      canChangeCard: false,
    });
    await screen.findByRole("switch", { name: "Renew automatically" });
    expect(screen.queryByRole("button", { name: "Use another card" })).toBeNull();
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
