// The toast wrapper with the real sonner: nothing of sonner on a page until a toast is raised,
// and a toast raised before the Toaster exists is still shown.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Providers } from "@/web/app/providers";
import { testQueryClient } from "@/web/testing/render";
import { toast } from "./toast";

const sonner = vi.hoisted(() => ({ imported: false }));
vi.mock("sonner", async (importOriginal) => {
  sonner.imported = true;
  return importOriginal();
});

afterEach(() => cleanup());

const toaster = () => document.querySelector("[data-sonner-toaster]");

async function renderPage() {
  render(
    <Providers queryClient={testQueryClient()}>
      <p>Page</p>
    </Providers>,
  );
  await act(async () => {});
}

// In order: the first test needs sonner not yet loaded, the next two share the Toaster it mounts.
describe("toast", () => {
  it("leaves sonner and the Toaster off a page that raises no toast", async () => {
    await renderPage();
    expect(screen.getByText("Page")).toBeTruthy();
    expect(toaster()).toBeNull();
    expect(sonner.imported).toBe(false);
  });

  it("shows a toast raised before any Toaster exists", async () => {
    await renderPage();
    expect(toaster()).toBeNull();
    act(() => toast.success("Copied", { description: "x" }));
    expect(await screen.findByText("Copied")).toBeTruthy();
    expect(screen.getByText("x")).toBeTruthy();
    expect(sonner.imported).toBe(true);
    expect(toaster()).not.toBeNull();
  });

  it("shows the next toast too", async () => {
    await renderPage();
    act(() => toast.error("Not saved", { description: "Try again." }));
    expect(await screen.findByText("Not saved")).toBeTruthy();
    expect(screen.getByText("Try again.")).toBeTruthy();
  });
});
