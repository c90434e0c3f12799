import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiGet, apiSend } from "./api";

afterEach(() => vi.unstubAllGlobals());

function respond(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("api client", () => {
  it("GETs under /api with same-origin credentials and returns the JSON", async () => {
    const fetchMock = respond(200, { data: [1, 2] });
    await expect(apiGet<{ data: number[] }>("/packages")).resolves.toEqual({ data: [1, 2] });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/packages");
    expect(init.method).toBe("GET");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBeUndefined();
  });

  it("sends JSON bodies", async () => {
    const fetchMock = respond(201, { id: "x" });
    await apiSend("POST", "/api/orders", { name: "Thandi" });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/orders");
    expect(init.method).toBe("POST");
    expect(init.body).toBe('{"name":"Thandi"}');
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  it("turns the error shape into an ApiError with status, code, message and fields", async () => {
    respond(400, { error: { code: "validation", message: "Please enter your e-mail", fields: { email: "Required" } } });
    const error = await apiSend("POST", "/orders", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "validation", message: "Please enter your e-mail", fields: { email: "Required" } });
  });

  it("a gateway answer without our error shape is an ApiError without a code (retryable)", async () => {
    respond(502, undefined);
    const error = await apiGet("/status").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "" });
  });

  it("a network failure is an ApiError with status 0 and no code", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const error = await apiGet("/packages").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: "" });
  });
});
