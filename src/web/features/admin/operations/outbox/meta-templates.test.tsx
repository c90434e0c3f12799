// "Templates at Meta": each template's review state as Meta gave it (an unknown state never reads
// as approved), the submit button and what Meta or the server said when it refused, and the
// owner's words checked before they are sent.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ShopTemplatesView, ShopTemplateView } from "@/shared/whatsapp-templates";
import { testQueryClient } from "@/web/testing/render";
import { MetaTemplatesCard } from "./meta-templates";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const base: ShopTemplateView = {
  kind: "receipt",
  label: "Payment receipt",
  category: "UTILITY",
  name: "receipt",
  language: "en",
  words: "Hello {{name}}, thank you for your payment to {{business}}. {{body}} Reply to this message if you need us.",
  variables: ["name", "business", "body", "secret"],
  state: "not_submitted",
  meta_status: null,
  rejected_reason: null,
  error: null,
  editable: true,
  set_by_hand: false,
  checked_at: null,
};

const SHOP: ShopTemplatesView = {
  missing: [],
  templates: [
    {
      ...base,
      kind: "verification-code",
      label: "One-time code",
      category: "AUTHENTICATION",
      name: "verification_code",
      words: "",
      state: "approved",
      meta_status: "APPROVED",
      editable: false,
    },
    { ...base, kind: "welcome", label: "Welcome", name: "welcome", state: "pending", meta_status: "PENDING", editable: false },
    {
      ...base,
      kind: "credentials",
      label: "Line login details",
      name: "credentials",
      state: "rejected",
      meta_status: "REJECTED",
      rejected_reason: "INVALID_FORMAT",
      editable: false,
    },
    {
      ...base,
      kind: "refund-issued",
      label: "Refund issued",
      name: "refund_issued",
      state: "unknown",
      meta_status: "IN_APPEAL",
      editable: false,
    },
    {
      ...base,
      kind: "line-restored",
      label: "Line restored",
      name: "line_restored",
      state: "refused",
      error: "The template body contains content that violates WhatsApp policy.",
    },
    base,
  ],
};

let requests: { method: string; path: string; body: unknown }[];
let submitAnswer: { status: number; body: unknown };

beforeEach(() => {
  requests = [];
  submitAnswer = { status: 200, body: { success: true, data: { created: ["receipt"], existing: [], refused: {} }, shop: SHOP } };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    requests.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const json = (status: number, payload: unknown) =>
      new Response(JSON.stringify(payload), { status, headers: { "content-type": "application/json" } });
    if (method === "POST" && url.pathname === "/api/admin/whatsapp/templates/submit") return json(submitAnswer.status, submitAnswer.body);
    if (method === "PUT" && url.pathname === "/api/admin/whatsapp/templates/receipt/words") return json(200, { success: true, shop: SHOP });
    return json(200, { data: [], kinds: [], variables: [], cloud_api: true, shop: SHOP });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = (shop: ShopTemplatesView = SHOP) =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MetaTemplatesCard shop={shop} />
    </QueryClientProvider>,
  );
const item = (label: string) => within(screen.getByRole("listitem", { name: label }));

describe("Templates at Meta", () => {
  it("shows each template's state: approved, in review, rejected with Meta's reason, refused in Meta's words, unknown never as approved", () => {
    show();
    expect(item("One-time code").getByText(/Approved: in use/)).toBeTruthy();
    expect(item("One-time code").getByText(/authentication \(copy-code button\)/)).toBeTruthy();
    expect(item("Welcome").getByText("In review")).toBeTruthy();
    expect(item("Line login details").getByText(/Meta's reason: INVALID_FORMAT/)).toBeTruthy();
    expect(item("Line restored").getByText("Meta said: The template body contains content that violates WhatsApp policy.")).toBeTruthy();
    const unknown = screen.getByRole("listitem", { name: "Refund issued" });
    expect(unknown.textContent).toContain("Unknown (IN_APPEAL)");
    expect(unknown.textContent).not.toContain("Approved");
    expect(item("Payment receipt").getByText("Not submitted")).toBeTruthy();
  });

  it("submits with one tap", async () => {
    show();
    fireEvent.click(screen.getByRole("button", { name: "Submit templates to Meta" }));
    await waitFor(() => expect(requests.some((r) => r.method === "POST" && r.path === "/api/admin/whatsapp/templates/submit")).toBe(true));
  });

  it("shows the server's refusal of a submit in its own words", async () => {
    submitAnswer = {
      status: 502,
      body: { error: { code: "unavailable", message: "Meta did not give the templates' states: Invalid OAuth access token." } },
    };
    show();
    fireEvent.click(screen.getByRole("button", { name: "Submit templates to Meta" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Meta did not give the templates' states: Invalid OAuth access token.");
  });

  it("says which setting is missing, and cannot submit without it", () => {
    show({ ...SHOP, missing: ["WHATSAPP_BUSINESS_ACCOUNT_ID"] });
    expect(screen.getByText(/Set WHATSAPP_BUSINESS_ACCOUNT_ID on the server/)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Submit templates to Meta" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("edits the words of one not yet submitted: a variable the message lacks is refused before sending, good words are saved", async () => {
    show();
    expect(item("Welcome").queryByRole("button", { name: /Edit the words/ })).toBeNull();
    fireEvent.click(item("Payment receipt").getByRole("button", { name: "Edit the words for Payment receipt" }));
    const box = screen.getByLabelText("Words");
    fireEvent.change(box, { target: { value: "Hi {{name}}, your {{password}} is here." } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(/\{\{password\}\} is not a variable this message has/)).toBeTruthy();
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(requests.filter((r) => r.method === "PUT")).toHaveLength(0);
    fireEvent.change(box, { target: { value: "Hi {{name}}, paid to {{business}}. Thanks!" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === "PUT")?.body).toEqual({ words: "Hi {{name}}, paid to {{business}}. Thanks!" }),
    );
  });
});
