// The toast wrapper when sonner's chunk cannot be fetched (offline): the caller is not thrown
// into, nothing mounts, and the next toast tries the download again.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { Providers } from "@/web/app/providers";
import { testQueryClient } from "@/web/testing/render";
import { toast } from "./toast";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("sonner", async (importOriginal) => {
  loads.count++;
  if (loads.count === 1) throw new Error("Failed to fetch dynamically imported module");
  return importOriginal();
});

afterEach(() => cleanup());

it("survives a failed download of sonner and tries again on the next toast", async () => {
  render(
    <Providers queryClient={testQueryClient()}>
      <p>Page</p>
    </Providers>,
  );
  await act(async () => {
    expect(() => toast.error("Lost")).not.toThrow();
  });
  await act(async () => {});
  expect(loads.count).toBe(1);
  expect(document.querySelector("[data-sonner-toaster]")).toBeNull();

  act(() => toast.success("Saved"));
  expect(await screen.findByText("Saved")).toBeTruthy();
  expect(loads.count).toBe(2);
  expect(screen.queryByText("Lost")).toBeNull();
});
