// The portal's box line (issue 32): a MAG box's card gives the portal URL and the MAC, never an
// M3U link; an Enigma2 receiver's its server; "Change MAC" checks the address with the shared
// schema, shows the server's 409 (when it is allowed) and posts once per attempt; "Reset ISP lock"
// asks first and says only that it was asked for, or why not.
import { QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientLine } from "@/shared/client-schemas";
import { MAC_MESSAGE } from "@/shared/device-lines";
import { testQueryClient } from "@/web/testing/render";
import { LINE_ACTION_MESSAGES } from "./line-actions";
import { LineDetails } from "./line-details";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock("@/web/lib/toast", () => ({ toast }));

const MAG: ClientLine = {
  username: "box8k2m9q1",
  password: "pw4Zt8Qe",
  portal_url: "http://stream.example.net:8080/c/",
  server_url: "http://stream.example.net:8080/c",
  m3u_url: "http://stream.example.net:8080/c/get.php?username=box8k2m9q1&password=pw4Zt8Qe&type=m3u_plus&output=ts",
  epg_url: "http://stream.example.net:8080/c/xmltv.php?username=box8k2m9q1&password=pw4Zt8Qe",
  expires_at: "2027-02-22T10:00:00.000Z",
  is_test: false,
  type: "mag",
  mac: "00:1A:79:12:34:56",
  mac_change: null,
  self_service: true,
};

interface Posted {
  path: string;
  body: unknown;
  key: string | null;
}

/** POSTs answered in turn by `answers`; GET /api/client/me with the line. */
function installFetch(answers: { status: number; body: unknown }[]) {
  const posted: Posted[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), "http://localhost").pathname;
      if (init?.method === "POST") {
        posted.push({
          path,
          body: init.body ? JSON.parse(String(init.body)) : undefined,
          key: new Headers(init.headers).get("idempotency-key"),
        });
        const answer = answers.shift() ?? { status: 500, body: {} };
        return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
      }
      return new Response(JSON.stringify({ error: { code: "not_found", message: "Not found." } }), { status: 404 });
    }),
  );
  return posted;
}

const show = (line: ClientLine) =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <LineDetails line={line} />
    </QueryClientProvider>,
  );

const dialog = () => screen.getByRole("dialog");
const type = async (input: HTMLElement, value: string) => {
  await act(async () => {
    fireEvent.input(input, { target: { value } });
  });
};
const press = async (element: HTMLElement) => {
  await act(async () => {
    fireEvent.click(element);
  });
};

beforeEach(() => {
  toast.success.mockReset();
  toast.error.mockReset();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a box's line in the portal", () => {
  it("a MAG box: the portal URL, the MAC and where to enter them; no login, M3U link or QR code", async () => {
    const { container } = show(MAG);
    expect(screen.getByRole("heading", { name: "Your MAG box" })).toBeTruthy();
    const card = within(container);
    expect(card.getByText("Portal URL")).toBeTruthy();
    expect(card.getByText(MAG.portal_url)).toBeTruthy();
    expect(card.getByText(MAG.mac)).toBeTruthy();
    expect(container.querySelector("[data-testid=mag-steps]")?.textContent).toContain("Set Portal 1 URL to the portal URL above.");
    expect(container.textContent).not.toContain("get.php");
    expect(container.textContent).not.toContain(MAG.username);
    expect(container.textContent).not.toContain(MAG.password);
    expect(container.textContent).not.toMatch(/M3U|playlist/i);
    expect(container.querySelector("img[data-testid=line-qr]")).toBeNull();
  });

  it("an Enigma2 receiver: its server and MAC, and where to ask for help", () => {
    const { container } = show({ ...MAG, type: "enigma2", mac: "AA:BB:CC:DD:EE:01", server_url: "http://stream.example.net:8080" });
    expect(screen.getByRole("heading", { name: "Your Enigma2 receiver" })).toBeTruthy();
    expect(within(container).getByText("http://stream.example.net:8080")).toBeTruthy();
    expect(within(container).getByText("AA:BB:CC:DD:EE:01")).toBeTruthy();
    expect(container.querySelector("[data-testid=enigma2-steps]")?.textContent).toContain("Chat to us on WhatsApp");
    expect(container.textContent).not.toContain("get.php");
  });

  it("Change MAC: the schema's message on the field, the server's 409 with when it is allowed, then one post and the dialog closes", async () => {
    const refusal = "You changed your box's MAC address a short while ago. You can change it again after 27 Nov 2026, 14:05 (SAST).";
    const posted = installFetch([
      { status: 409, body: { error: { code: "conflict", message: refusal } } },
      {
        status: 202,
        body: { data: { id: "c1", old_mac: MAG.mac, new_mac: "00:1A:79:65:43:21", status: "pending", created_at: "2026-11-26T12:00:00Z" } },
      },
    ]);
    show(MAG);
    await press(screen.getByRole("button", { name: "Change MAC" }));
    const input = within(dialog()).getByLabelText("New MAC address");

    await type(input, "00:1A:79:12");
    await press(within(dialog()).getByRole("button", { name: "Change MAC address" }));
    const error = await waitFor(() => within(dialog()).getByText(MAC_MESSAGE));
    expect(input.getAttribute("aria-describedby")).toContain(error.id);
    expect(posted).toEqual([]);

    await type(input, "AA:BB:CC:DD:EE:FF");
    expect(within(dialog()).getByTestId("mac-warning").textContent).toContain("start with 00:1A:79");

    await type(input, "00:1a:79:65:43:21");
    await press(within(dialog()).getByRole("button", { name: "Change MAC address" }));
    await waitFor(() => expect(within(dialog()).getByRole("alert").textContent).toBe(refusal));

    await press(within(dialog()).getByRole("button", { name: "Change MAC address" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted.map((p) => [p.path, p.body])).toEqual([
      ["/api/client/line/mac", { mac: "00:1A:79:65:43:21" }],
      ["/api/client/line/mac", { mac: "00:1A:79:65:43:21" }],
    ]);
    // one attempt at one address: the same key, so the server makes it once
    expect(posted[0].key).toBeTruthy();
    expect(posted[1].key).toBe(posted[0].key);
    expect(toast.success).toHaveBeenCalledWith("MAC change asked for", {
      description: "Your line is moving to 00:1A:79:65:43:21. Your line card shows the new address once it is done.",
    });
  });

  it("a change under way shows on the card", () => {
    show({ ...MAG, mac_change: { new_mac: "00:1A:79:65:43:21", requested_at: "2026-11-26T12:00:00Z" } });
    expect(screen.getByTestId("mac-change-pending").textContent).toContain(
      "Your line is moving to the box with MAC address 00:1A:79:65:43:21",
    );
  });

  it("Reset ISP lock on an app's line: asked first, then one post; a refusal says why, a success only that it was asked for", async () => {
    const posted = installFetch([
      { status: 409, body: { error: { code: "conflict", message: "Your line is still being made. Try again once it is ready." } } },
      { status: 202, body: { data: { queued: true, by: "panel" } } },
    ]);
    const { container } = show({ ...MAG, type: "m3u", mac: "" });
    expect(screen.queryByRole("button", { name: "Change MAC" })).toBeNull();
    await press(screen.getByRole("button", { name: "Reset ISP lock" }));
    expect(within(dialog()).getByText(LINE_ACTION_MESSAGES.ispConfirm)).toBeTruthy();
    expect(posted).toEqual([]);

    await press(within(dialog()).getByRole("button", { name: "Reset ISP lock" }));
    await waitFor(() =>
      expect(within(dialog()).getByRole("alert").textContent).toBe("Your line is still being made. Try again once it is ready."),
    );
    await press(within(dialog()).getByRole("button", { name: "Reset ISP lock" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(container.querySelector("[data-testid=isp-reset-done]")?.textContent).toBe(LINE_ACTION_MESSAGES.ispDone);
    expect(posted.map((p) => p.path)).toEqual(["/api/client/line/isp-reset", "/api/client/line/isp-reset"]);
    expect(posted[1].key).toBe(posted[0].key);
  });

  it("Reset ISP lock where the business resets lines by hand (manual panel): says so, not 'in a few minutes'", async () => {
    installFetch([{ status: 202, body: { data: { queued: true, by: "owner" } } }]);
    const { container } = show({ ...MAG, type: "m3u", mac: "" });
    await press(screen.getByRole("button", { name: "Reset ISP lock" }));
    await press(within(dialog()).getByRole("button", { name: "Reset ISP lock" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(container.querySelector("[data-testid=isp-reset-done]")?.textContent).toBe(LINE_ACTION_MESSAGES.ispDoneByHand);
  });

  it("a line not on the panel offers no self-service", () => {
    show({ ...MAG, self_service: false });
    expect(screen.queryByTestId("line-actions")).toBeNull();
  });
});
