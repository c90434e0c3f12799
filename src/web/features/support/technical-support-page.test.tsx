import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { TechnicalSupportPage } from "./technical-support-page";

const api = () =>
  stubFetch({
    "/branding": { body: { data: { company_name: "Kasi Stream", whatsapp_number: "082 123 4567" } } },
    "/status": { body: { overall: "stable", data: [], components: [], incidents: [], checked_at: null } },
    "/settings": { body: { data: {} } },
  });

const renderAt = (path: string) => renderRoutes([{ path: "/technical-support", element: <TechnicalSupportPage /> }], path);

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("TechnicalSupportPage", () => {
  it("with ?device= (from the client portal) leads with that device's setup guide and names it in the WhatsApp message", async () => {
    vi.stubGlobal("fetch", api().fetch);
    const { container } = await renderAt("/technical-support?device=firestick").rendered;
    const guide = container.querySelector('a[href="/setup-guide?device=firestick"]');
    expect(guide?.textContent).toContain("Your Amazon Fire Stick");
    const whatsapp = await waitFor(() => {
      const link = container.querySelector<HTMLAnchorElement>('a[href^="https://wa.me/27821234567"]');
      if (!link) throw new Error("no WhatsApp link yet");
      return link;
    });
    expect(decodeURIComponent(whatsapp.href)).toContain("on my Amazon Fire Stick");
  });

  it("without a device, or with an unknown one, shows the general checklists only", async () => {
    vi.stubGlobal("fetch", api().fetch);
    const { container } = await renderAt("/technical-support?device=toaster").rendered;
    expect(container.querySelector('a[href^="/setup-guide?device="]')).toBeNull();
    expect(container.textContent).toContain("Buffering or freezing");
    const whatsapp = await waitFor(() => {
      const link = container.querySelector<HTMLAnchorElement>('a[href^="https://wa.me/"]');
      if (!link) throw new Error("no WhatsApp link yet");
      return link;
    });
    expect(decodeURIComponent(whatsapp.href)).not.toContain("on my");
  });
});
