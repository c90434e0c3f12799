import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { messagesByPath, setServerErrors, showServerErrors, toastServerErrors } from "./form-field";

describe("messagesByPath", () => {
  const tree = {
    title: { type: "too_small", message: "Please enter a title" },
    content: { links: [undefined, { url: { type: "custom", message: "Not a web address", ref: {} } }] },
    features: { root: { message: "At most 10" }, 1: { message: "Too long" } },
  };

  it("keys each message by its full path", () => {
    expect(messagesByPath(tree)).toEqual({
      title: "Please enter a title",
      "content.links.1.url": "Not a web address",
      features: "At most 10",
      "features.1": "Too long",
    });
  });

  it("with rollUp, also gives a top-level field its first message", () => {
    expect(messagesByPath(tree, { rollUp: true })).toMatchObject({ title: "Please enter a title", content: "Not a web address" });
  });
});

describe("setServerErrors", () => {
  it("puts a field's message (an item's too) beside it, and anything else on root.server", () => {
    const setError = vi.fn();
    const refusal = new ApiError(400, "validation", "Please check the form", { name: "Taken", "features.2": "Too long", other: "No" });
    expect(setServerErrors(refusal, setError, ["name", "features"])).toBe(true);
    expect(setError.mock.calls).toEqual([
      ["name", { type: "server", message: "Taken" }],
      ["features.2", { type: "server", message: "Too long" }],
      ["root.server", { type: "server", message: "No" }],
    ]);
  });

  it("is false for an error that is no refusal", () => {
    expect(setServerErrors(new Error("offline"), vi.fn(), ["name"])).toBe(false);
  });
});

describe("showServerErrors", () => {
  it("places a refusal as setServerErrors does", () => {
    const setError = vi.fn();
    showServerErrors(new ApiError(400, "validation", "Please check the form", { name: "Taken" }), setError, ["name"], "Not saved.");
    expect(setError.mock.calls).toEqual([["name", { type: "server", message: "Taken" }]]);
  });

  it("puts any other failure above the fields in its own words, or the fallback's when it has none", () => {
    const setError = vi.fn();
    showServerErrors(new Error("offline"), setError, ["name"], "Not saved.");
    showServerErrors("no error object", setError, ["name"], "Not saved.");
    expect(setError.mock.calls).toEqual([
      ["root.server", { type: "server", message: "offline" }],
      ["root.server", { type: "server", message: "Not saved." }],
    ]);
  });
});

describe("toastServerErrors", () => {
  it("places a refusal on the form and toasts nothing", () => {
    const error = vi.spyOn(toast, "error").mockImplementation(() => undefined as never);
    const setError = vi.fn();
    toastServerErrors(new ApiError(400, "validation", "Please check the form", { name: "Taken" }), setError, ["name"], "Not saved");
    expect(setError.mock.calls).toEqual([["name", { type: "server", message: "Taken" }]]);
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  });

  it("toasts any other failure under its title, in its own words or the fallback's", () => {
    const error = vi.spyOn(toast, "error").mockImplementation(() => undefined as never);
    const setError = vi.fn();
    toastServerErrors(new Error("offline"), setError, ["name"], "Not saved");
    toastServerErrors("no error object", setError, ["name"], "Not saved");
    expect(error.mock.calls).toEqual([
      ["Not saved", { description: "offline" }],
      ["Not saved", { description: "Please try again." }],
    ]);
    expect(setError).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
