// The portal's line section: the player login and the playlist links, each copied with one tap;
// the password (also inside the links) dotted out until asked; the QR code of the M3U link; and
// the TEST LINE notice on a sandbox line.
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientLine } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { cleanup, click, render as renderBare, testQueryClient, waitFor } from "@/web/testing/render";
import { LineDetails } from "./line-details";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

// The line's self-service buttons use the query client.
const render = (ui: ReactNode) => renderBare(<QueryClientProvider client={testQueryClient()}>{ui}</QueryClientProvider>);

const LINE: ClientLine = {
  username: "test7k2m9q",
  password: "pw4Zt8Qe",
  portal_url: "http://sandbox-panel.invalid:8080",
  server_url: "http://sandbox-panel.invalid:8080",
  m3u_url: "http://sandbox-panel.invalid:8080/get.php?username=test7k2m9q&password=pw4Zt8Qe&type=m3u_plus&output=ts",
  epg_url: "http://sandbox-panel.invalid:8080/xmltv.php?username=test7k2m9q&password=pw4Zt8Qe",
  expires_at: "2027-02-22T10:00:00.000Z",
  is_test: true,
  type: "m3u",
  mac: "",
  mac_change: null,
  self_service: true,
};

let copied: string[];
beforeEach(() => {
  copied = [];
  vi.stubGlobal("navigator", {
    ...navigator,
    clipboard: { writeText: async (text: string) => void copied.push(text) },
  });
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const button = (root: ParentNode, label: string) => {
  const found = root.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  if (!found) throw new Error(`no button "${label}"`);
  return found;
};

describe("the portal's line section", () => {
  it("copies the server, username, password, M3U and EPG links exactly, and hides the password until asked", async () => {
    const { container } = await render(<LineDetails line={LINE} />);
    for (const [label, value] of [
      ["Copy server url", LINE.server_url],
      ["Copy line username", LINE.username],
      ["Copy line password", LINE.password],
      ["Copy m3u link", LINE.m3u_url],
      ["Copy epg link", LINE.epg_url],
    ] as const) {
      await click(button(container, label));
      expect(copied.at(-1)).toBe(value);
    }
    // on screen the password shows nowhere, not even inside the links, until Show
    expect(container.textContent).not.toContain(LINE.password);
    expect(container.textContent).toContain("get.php?username=test7k2m9q&password=••••••••&type=m3u_plus");
    await click(button(container, "Show line password"));
    expect(container.textContent).toContain(LINE.password);
    expect(container.textContent).toContain(LINE.m3u_url);
    expect(container.querySelector("[data-testid=line-expiry]")?.textContent).toContain(formatDate(LINE.expires_at));
  });

  it("draws a QR code of the M3U link", async () => {
    const { container } = await render(<LineDetails line={LINE} />);
    const qr = await waitFor(() => {
      const img = container.querySelector<HTMLImageElement>("img[data-testid=line-qr]");
      if (!img) throw new Error("no QR code yet");
      return img;
    });
    expect(qr.alt).toBe("QR code of your M3U playlist link");
    const svg = decodeURIComponent(qr.src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""));
    expect(svg).toMatch(/^<svg[\s\S]*<path/);
  });

  it("says plainly that a sandbox line is a TEST LINE, and says nothing of the kind for a real one", async () => {
    const test = await render(<LineDetails line={LINE} />);
    expect(test.container.querySelector("[data-testid=test-line-notice]")?.textContent).toContain("TEST LINE.");
    expect(test.container.querySelector("[data-testid=test-line-notice]")?.textContent).toContain("plays no channels");
    await test.unmount();

    const real = await render(<LineDetails line={{ ...LINE, is_test: false }} />);
    expect(real.container.querySelector("[data-testid=test-line-notice]")).toBeNull();
    expect(real.container.textContent).not.toMatch(/test line/i);
  });
});
