import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, waitFor } from "@/web/testing/render";
import { inputByLabel, renderWithClient, stubApi, typeInto } from "../components/test-helpers";
import { DownloadFormDialog } from "./download-form";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the app form's QR code", () => {
  it("appears for a download URL, as an SVG image with SVG and PNG downloads", async () => {
    stubApi({});
    await renderWithClient(<DownloadFormDialog onDone={() => {}} />);
    expect(document.body.textContent).toContain("Add a download URL to get a QR code.");
    await typeInto(inputByLabel(document.body, "Download URL"), "https://example.test/player.apk");

    const img = await waitFor(() => {
      const found = document.body.querySelector<HTMLImageElement>("img[data-testid=qr-code]");
      if (!found) throw new Error("no QR code yet");
      return found;
    });
    expect(img.alt).toBe("QR code for https://example.test/player.apk");
    const svg = decodeURIComponent(img.src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""));
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const buttons = [...document.body.querySelectorAll("button")].map((b) => b.textContent?.trim());
    expect(buttons).toEqual(expect.arrayContaining(["SVG", "PNG"]));

    // other QR data replaces the URL
    await typeInto(inputByLabel(document.body, "QR code data"), "CODE-123");
    await waitFor(() =>
      expect(document.body.querySelector<HTMLImageElement>("img[data-testid=qr-code]")?.alt).toBe("QR code for CODE-123"),
    );
  });
});
