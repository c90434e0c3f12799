// GET /metrics: hidden without METRICS_TOKEN, a bearer of it only, and the figures an operator
// alerts on (request durations by route, outbox and provisioning backlog, SSE streams, pool).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, outbox, provisioningJobs } from "@/server/db/schema";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import { urlForLog } from "./observability";

const TOKEN = "metrics-token-for-tests-0123";

let withToken: TestApp;
let without: TestApp;

beforeAll(async () => {
  withToken = await createTestApp({ METRICS_TOKEN: TOKEN }, { seed: false });
  without = await createTestApp({}, { database: withToken.database, seed: false });
});

afterAll(async () => {
  await without?.app.close();
  await withToken?.close();
});

const scrape = async () => {
  const response = await withToken.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  return response.body;
};

/** The value of one sample line, e.g. sample(text, 'streamdesk_outbox_messages{status="failed"}'). */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("GET /metrics", () => {
  it("answers 404 when METRICS_TOKEN is unset", async () => {
    const response = await without.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });

  it("answers 401 without the token or with another one", async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, "Bearer "]) {
      const response = await withToken.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toContain("Bearer");
      expect(response.body).not.toContain("http_request_duration_seconds");
    }
  });

  it("reports request durations by route pattern, not by raw address", async () => {
    await withToken.app.inject({ method: "GET", url: "/api/health" });
    await withToken.app.inject({ method: "GET", url: "/api/payments/no-such-ref" });
    const text = await scrape();
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("no-such-ref");
    expect(text).toContain("process_resident_memory_bytes");
  });

  it("reports the outbox and provisioning backlog and failures", async () => {
    const db = withToken.app.db;
    await db.insert(outbox).values([
      { channel: "email", recipient: "a@example.test", body: "x", status: "pending" },
      { channel: "email", recipient: "b@example.test", body: "x", status: "pending" },
      { channel: "email", recipient: "c@example.test", body: "x", status: "failed" },
      { channel: "email", recipient: "d@example.test", body: "x", status: "sent" },
    ]);
    const [client] = await db.insert(clients).values({ username: "metrics-client", password_hash: "x", full_name: "M" }).returning();
    await db.insert(provisioningJobs).values({ client_id: client.id, action: "create_line", cause_key: "metrics:1", status: "failed" });
    const text = await scrape();
    expect(sample(text, 'streamdesk_outbox_messages{status="pending"}')).toBe(2);
    expect(sample(text, 'streamdesk_outbox_messages{status="failed"}')).toBe(1);
    expect(sample(text, 'streamdesk_outbox_messages{status="owner"}')).toBe(0);
    expect(sample(text, "streamdesk_outbox_oldest_pending_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'streamdesk_provisioning_jobs{status="failed"}')).toBe(1);
    expect(sample(text, 'streamdesk_provisioning_jobs{status="pending"}')).toBe(0);
    expect(sample(text, "streamdesk_database_up")).toBe(1);
    if (onPostgres()) expect(sample(text, 'streamdesk_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    else expect(text).not.toContain("streamdesk_db_pool_connections{");
  });

  it("counts open SSE streams", async () => {
    await withToken.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (withToken.app.server.address() as AddressInfo).port;
    const request = http.get(`http://127.0.0.1:${port}/api/events`, { agent: false });
    request.on("error", () => {});
    await new Promise((resolve) => request.once("response", resolve));
    expect(sample(await scrape(), "streamdesk_sse_clients")).toBe(1);
    request.destroy();
    await eventually(async () => expect(sample(await scrape(), "streamdesk_sse_clients")).toBe(0), 2000);
  });
});

describe("urlForLog", () => {
  it("masks tokens in query strings", () => {
    expect(urlForLog("/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=abc&hub.challenge=1")).toBe(
      "/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=[hidden]&hub.challenge=1",
    );
    expect(urlForLog("/reset?token=abc")).toBe("/reset?token=[hidden]");
    expect(urlForLog("/api/packages")).toBe("/api/packages");
  });
});
