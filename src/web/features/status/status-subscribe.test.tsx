// The status page's subscribe form: the schema's message for a bad address before any request,
// the server's answer once sent, and its field error shown on the field.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { STATUS_EMAIL_MESSAGE } from "@/shared/schemas";
import { StatusSubscribe } from "./status-subscribe";

const sent: unknown[] = [];
function stub(status: number, body: unknown) {
  vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
}
const renderForm = () =>
  render(
    <MemoryRouter>
      <StatusSubscribe />
    </MemoryRouter>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sent.length = 0;
});

describe("StatusSubscribe", () => {
  it("checks the address before sending, then shows the server's answer", async () => {
    stub(202, { success: true, message: "Check your inbox: we've sent you a link to confirm your status updates." });
    renderForm();
    expect(screen.getByText(/Your privacy:/)).toBeTruthy();
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    expect(await screen.findByText(STATUS_EMAIL_MESSAGE)).toBeTruthy();
    expect(sent).toHaveLength(0);
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: "pat@example.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    expect((await screen.findByRole("status")).textContent).toContain("Check your inbox");
    expect(sent).toEqual([{ email: "pat@example.test" }]);
  });

  it("shows the server's field error on the field", async () => {
    stub(429, { error: { code: "rate_limited", message: "Too many requests from your connection. Please wait a minute and try again." } });
    renderForm();
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: "pat@example.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    expect(await screen.findByText(/Too many requests/)).toBeTruthy();
  });
});
