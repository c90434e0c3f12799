import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "@/web/testing/render";
import { DialogBoundary } from "./dialog-boundary";

vi.mock("@/web/lib/toast", () => ({ toast: { error: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

function Broken(): never {
  throw new Error("Failed to fetch dynamically imported module");
}

afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
});

describe("DialogBoundary", () => {
  it("a dialog that cannot load closes itself and tells the visitor, leaving the page standing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const onClose = vi.fn();
    const { text } = await render(
      <section>
        <p>Packages</p>
        <DialogBoundary onClose={onClose}>
          <Broken />
        </DialogBoundary>
      </section>,
    );
    expect(text()).toBe("Packages");
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith("Couldn't open this just now", {
      description: "Please check your connection and reload the page.",
    });
  });
});
