import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiGet, apiSend, BOOT_DATA_MAX_AGE_MS, dropBootData, resetBootData } from "./api";

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

describe("reads inlined in the page (boot data)", () => {
  function inline(text: string) {
    const element = document.createElement("script");
    element.id = "boot-data";
    element.type = "application/json";
    element.textContent = text;
    document.body.append(element);
    resetBootData();
  }
  afterEach(() => {
    document.getElementById("boot-data")?.remove();
    resetBootData();
    vi.restoreAllMocks();
  });

  it("answers each inlined read once, without the network; the next read goes to the server", async () => {
    inline(JSON.stringify({ "/api/branding": { data: { companyName: "Inline" } } }));
    const fetchMock = respond(200, { data: { companyName: "Fresh" } });
    await expect(apiGet("/branding")).resolves.toEqual({ data: { companyName: "Inline" } });
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(apiGet("/branding")).resolves.toEqual({ data: { companyName: "Fresh" } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("matches the whole path with its query, and leaves other reads to the network", async () => {
    inline(JSON.stringify({ "/api/images?keys=hero_logo": { data: [] } }));
    const fetchMock = respond(200, { data: ["x"] });
    await expect(apiGet("/images?keys=pwa_icon")).resolves.toEqual({ data: ["x"] });
    await expect(apiGet("/api/images?keys=hero_logo")).resolves.toEqual({ data: [] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it(`is not used ${BOOT_DATA_MAX_AGE_MS / 1000} s after the page started, nor after a live change`, async () => {
    inline(JSON.stringify({ "/api/status": { overall: "stable" }, "/api/notices": { data: [] } }));
    const fetchMock = respond(200, { overall: "outage", data: [1] });
    dropBootData();
    await expect(apiGet("/notices")).resolves.toEqual({ overall: "outage", data: [1] });
    inline(JSON.stringify({ "/api/status": { overall: "stable" } }));
    vi.spyOn(performance, "now").mockReturnValue(BOOT_DATA_MAX_AGE_MS + 1);
    await expect(apiGet("/status")).resolves.toEqual({ overall: "outage", data: [1] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("a broken block only means the reads go to the network", async () => {
    inline("{not json");
    const fetchMock = respond(200, { data: 1 });
    await expect(apiGet("/branding")).resolves.toEqual({ data: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
