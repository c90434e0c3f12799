import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Download } from "@/shared/api";
import { cleanup, click, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { DownloadsPage } from "./downloads-page";
import { SupportedApps } from "./supported-apps";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

function app(n: number, name: string, extra: Partial<Download> = {}): Download {
  return {
    id: `00000000-0000-4000-8000-00000000010${n}`,
    name,
    description: `${name} description`,
    download_url: `https://play.example/${n}`,
    file_type: "APK",
    file_size: "About 40 MB",
    version: `${n}.0`,
    device_compatibility: ["android", "firestick"],
    installation_guide: "1. Install\n2. Sign in",
    download_count: 0,
    is_featured: false,
    qr_code_data: null,
    logo_url: null,
    sort_order: n,
    is_active: true,
    ...extra,
  };
}

const APPS = [
  app(1, "IPTV Smarters Pro", { is_featured: true, qr_code_data: "https://aftv.news/12345" }),
  app(2, "Featured Two", { is_featured: true }),
  app(3, "TiviMate", { device_compatibility: ["android-box"] }),
  app(4, "No Guide", { installation_guide: null, download_url: null, device_compatibility: ["smart-tv-samsung"] }),
];

type Answer = { status?: number; body: unknown };

function stubApi(routes: Record<string, Answer | (() => Answer)>) {
  const stub = stubFetch({ "/downloads": { body: { data: APPS } }, ...routes });
  const posts: { path: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    if (init?.method === "POST") posts.push({ path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return stub.fetch(input, init);
  });
  return posts;
}

function dialog(): HTMLElement {
  const found = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!found) throw new Error("no dialog open");
  return found;
}

function button(scope: ParentNode, name: string): HTMLButtonElement {
  const found = [...scope.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

async function typeInto(input: HTMLInputElement | null, value: string) {
  if (!input) throw new Error("typeInto: no input");
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

async function openApp(name: string) {
  const { container } = await renderRoutes([{ path: "/", element: <SupportedApps /> }]).rendered;
  await waitFor(() => expect(container.querySelector(`[data-app="${name}"]`)).not.toBeNull());
  await click(container.querySelector(`[data-app="${name}"]`));
  await waitFor(() => expect(dialog().querySelector("form")).not.toBeNull());
  const form = dialog().querySelector("form") as HTMLFormElement;
  return {
    container,
    form,
    whatsapp: form.querySelector<HTMLInputElement>('input[name="whatsapp"]'),
    email: form.querySelector<HTMLInputElement>('input[name="email"]'),
    send: () => click(button(form, "Send instructions")),
    errorOf: (input: HTMLInputElement | null) => document.getElementById(input?.getAttribute("aria-describedby") ?? "")?.textContent,
  };
}

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("SupportedApps", () => {
  it("shows the first featured app as the hero card, other featured apps as cards, the rest compact", async () => {
    stubApi({});
    const { container, text } = await renderRoutes([{ path: "/", element: <SupportedApps /> }]).rendered;
    expect(text()).toContain("Supported Apps & Devices");
    await waitFor(() => expect(container.querySelectorAll("[data-app]")).toHaveLength(4));
    const hero = container.querySelector('[data-app="IPTV Smarters Pro"]');
    expect(hero?.textContent).toContain("Recommended");
    expect(hero?.textContent).toContain("Android Phone/Tablet");
    expect(container.querySelector('[aria-label="More featured apps"] [data-app="Featured Two"]')).not.toBeNull();
    expect([...container.querySelectorAll('[aria-label="More apps"] [data-app]')].map((el) => el.getAttribute("data-app"))).toEqual([
      "TiviMate",
      "No Guide",
    ]);
  });

  it("says 'No Apps Available' when there are none", async () => {
    stubApi({ "/downloads": { body: { data: [] } } });
    const { text } = await renderRoutes([{ path: "/", element: <SupportedApps /> }]).rendered;
    await waitFor(() => expect(text()).toContain("No Apps Available"));
  });

  it("falls back to the built-in app names, without download links, when the read fails", async () => {
    stubApi({ "/downloads": { status: 503, body: { error: { code: "unavailable", message: "Down" } } } });
    const { container } = await renderRoutes([{ path: "/", element: <SupportedApps /> }]).rendered;
    await waitFor(() => expect(container.querySelectorAll("[data-app]")).toHaveLength(3), 6000);
    await click(container.querySelector('[data-app="Smart IPTV"]'));
    await waitFor(() => dialog());
    await click(button(dialog(), "Download"));
    expect(toast.error).toHaveBeenCalledWith("Error", { description: "Download URL not available" });
  }, 10_000);
});

describe("the download dialog", () => {
  it("shows the app's facts and QR data; Download counts, opens the link in a tab and says 'Download Started'", async () => {
    const posts = stubApi({ [`/downloads/${APPS[0].id}/download`]: { body: { url: "https://play.example/1" } } });
    const tab = {
      closed: false,
      opener: {},
      location: { href: "" },
      document: { title: "", body: { style: {}, textContent: "" } },
      close: vi.fn(),
    };
    vi.spyOn(window, "open").mockReturnValue(tab as unknown as Window);
    await openApp("IPTV Smarters Pro");
    const text = dialog().textContent ?? "";
    for (const fact of [
      "IPTV Smarters Pro",
      "Version 1.0",
      "About 40 MB",
      "Android Phone/Tablet",
      "Amazon Fire Stick",
      "https://aftv.news/12345",
    ]) {
      expect(text).toContain(fact);
    }
    await click(button(dialog(), "Download"));
    await waitFor(() => expect(tab.location.href).toBe("https://play.example/1"));
    expect(posts).toEqual([{ path: `/api/downloads/${APPS[0].id}/download`, body: undefined }]);
    expect(toast.success).toHaveBeenCalledWith("Download Started", expect.anything());
  });

  it("a download the server has no link for says 'Download URL not available'; other failures 'Download Error'", async () => {
    let answer: Answer = { status: 404, body: { error: { code: "no_download_url", message: "Download URL not available" } } };
    stubApi({ [`/downloads/${APPS[2].id}/download`]: () => answer });
    const tab = {
      closed: false,
      opener: {},
      location: { href: "" },
      document: { title: "", body: { style: {}, textContent: "" } },
      close: vi.fn(),
    };
    vi.spyOn(window, "open").mockReturnValue(tab as unknown as Window);
    await openApp("TiviMate");
    await click(button(dialog(), "Download"));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Error", { description: "Download URL not available" }));
    expect(tab.close).toHaveBeenCalled();
    answer = { status: 500, body: { error: { code: "internal", message: "Oops" } } };
    await click(button(dialog(), "Download"));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Download Error", { description: "Failed to start download. Please try again." }),
    );
  });

  it("checks the contacts with the spec's messages before sending anything", async () => {
    const posts = stubApi({});
    const ui = await openApp("TiviMate");
    await ui.send();
    expect(ui.form.textContent).toContain("Please enter contact information");

    await typeInto(ui.whatsapp, "082 123");
    await ui.send();
    expect(ui.whatsapp?.getAttribute("aria-invalid")).toBe("true");
    expect(ui.errorOf(ui.whatsapp)).toBe("Please enter a valid phone number");

    await typeInto(ui.email, "someone@nowhere");
    await ui.send();
    expect(ui.errorOf(ui.email)).toBe("Please enter a valid email address");
    expect(posts).toEqual([]);
  });

  it("an app without an installation guide says 'No Instructions Available'", async () => {
    const posts = stubApi({});
    const ui = await openApp("No Guide");
    await typeInto(ui.email, "thabo@example.co.za");
    await ui.send();
    expect(toast.error).toHaveBeenCalledWith("No Instructions Available", { description: "Installation guide not available for this app" });
    expect(posts).toEqual([]);
  });

  it("sends one request per chosen channel, in parallel: all sent → 'Instructions Sent!'", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stub = stubFetch({
      "/downloads": { body: { data: APPS } },
      [`/downloads/${APPS[2].id}/instructions`]: { body: { success: true } },
    });
    const posts: unknown[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "POST") {
        posts.push(JSON.parse(String(init.body)));
        await gate; // both requests must be under way before either answers
      }
      return stub.fetch(input, init);
    });
    const ui = await openApp("TiviMate");
    await typeInto(ui.whatsapp, "082 123 4567");
    await typeInto(ui.email, "thabo@example.co.za");
    await ui.send();
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts).toEqual([
      { type: "whatsapp", contact: "082 123 4567" },
      { type: "email", contact: "thabo@example.co.za" },
    ]);
    expect(button(ui.form, "Sending...").disabled).toBe(true);
    release();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Instructions Sent!", expect.anything()));
  });

  it("some channels failing → 'Partially Sent'; all failing → 'Send Failed' with the server's message", async () => {
    let emailAnswer: Answer = { status: 503, body: { error: { code: "unavailable", message: "Mail is down" } } };
    let whatsappAnswer: Answer = { body: { success: true } };
    const stub = stubFetch({
      "/downloads": { body: { data: APPS } },
      [`/downloads/${APPS[2].id}/instructions`]: { body: {} },
    });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "POST") {
        const { type } = JSON.parse(String(init.body)) as { type: string };
        const answer = type === "email" ? emailAnswer : whatsappAnswer;
        return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
      }
      return stub.fetch(input, init);
    });
    const ui = await openApp("TiviMate");
    await typeInto(ui.whatsapp, "0821234567");
    await typeInto(ui.email, "thabo@example.co.za");
    await ui.send();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Partially Sent", expect.anything()));
    expect(vi.mocked(toast.error).mock.calls[0][1]).toEqual({ description: "Sent by WhatsApp, but not by e-mail: Mail is down" });

    whatsappAnswer = emailAnswer;
    emailAnswer = { status: 429, body: { error: { code: "rate_limited", message: "Too many requests" } } };
    await ui.send();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Send Failed", { description: "Mail is down" }));
  });
});

describe("the download dialog: privacy and failures", () => {
  it("tells the visitor, before they type, what the contact is for (POPIA) and links the privacy policy", async () => {
    stubApi({});
    const ui = await openApp("TiviMate");
    expect(ui.form.textContent).toContain("Your privacy:");
    expect(ui.form.textContent).toContain("the WhatsApp number or e-mail address you enter here to send you the TiviMate setup guide");
    expect(ui.form.querySelector('a[href="/privacy-policy"]')).not.toBeNull();
  });

  it("'Send Failed' says the spec's words when a gateway answered instead of our server, never its status line", async () => {
    stubApi({});
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "POST") return new Response("<html>Bad gateway</html>", { status: 500, statusText: "Internal Server Error" });
      return stubFetch({ "/downloads": { body: { data: APPS } } }).fetch(input, init);
    });
    const ui = await openApp("TiviMate");
    await typeInto(ui.email, "thabo@example.co.za");
    await ui.send();
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Send Failed", { description: "Failed to send instructions. Please try again." }),
    );
    expect(JSON.stringify(vi.mocked(toast.error).mock.calls)).not.toContain("The server answered");
  });

  it("puts the server's reason about a contact beside that field, keeping what was typed", async () => {
    stubApi({
      [`/downloads/${APPS[2].id}/instructions`]: {
        status: 400,
        body: {
          error: {
            code: "validation",
            message: "Please enter a valid phone number",
            fields: { contact: "Please enter a valid phone number" },
          },
        },
      },
    });
    const ui = await openApp("TiviMate");
    await typeInto(ui.whatsapp, "+1 (555) 0100 200");
    await ui.send();
    await waitFor(() => expect(ui.errorOf(ui.whatsapp)).toBe("Please enter a valid phone number"));
    expect(ui.whatsapp?.value).toBe("+1 (555) 0100 200");
    expect(toast.error).toHaveBeenCalledWith("Send Failed", { description: "Please enter a valid phone number" });
  });
});

describe("DownloadsPage", () => {
  it("lists every app under each device it supports, in the spec's device order", async () => {
    stubApi({});
    const { container } = await renderRoutes([{ path: "/", element: <DownloadsPage /> }]).rendered;
    await waitFor(() => expect(container.querySelectorAll("section[id^='device-']").length).toBeGreaterThan(0));
    const groups = [...container.querySelectorAll("section[id^='device-']")].map((section) => [
      section.querySelector("h2")?.textContent,
      [...section.querySelectorAll("[data-app]")].map((el) => el.getAttribute("data-app")),
    ]);
    expect(groups).toEqual([
      ["Android Phone/Tablet", ["IPTV Smarters Pro", "Featured Two"]],
      ["Smart TV - Samsung, Hisense, LG", ["No Guide"]],
      ["Amazon Fire Stick", ["IPTV Smarters Pro", "Featured Two"]],
      ["Android TV Box", ["TiviMate"]],
    ]);
    expect(container.querySelector("h1")?.textContent).toBe("Player apps for your devices");
  });
});
