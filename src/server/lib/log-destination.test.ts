// The log destination (lib/log-destination.ts): lines gathered per event-loop turn leave in one
// write, in order; a burst leaves at 64 KB; nothing gathered is lost at exit or close.
import { describe, expect, it } from "vitest";
import { createTestApp } from "@/server/testing";
import { LogBuffer } from "./log-destination";

function sink() {
  const writes: string[] = [];
  return { writes, write: (text: string) => writes.push(text) };
}

describe("LogBuffer", () => {
  it("sends the lines of one turn in one write, in order, right after the turn", async () => {
    const out = sink();
    const buffer = new LogBuffer(out);
    buffer.write('{"n":1}\n');
    buffer.write('{"n":2}\n');
    buffer.write('{"n":3}\n');
    expect(out.writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(out.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n']);
    buffer.write('{"n":4}\n');
    await new Promise((r) => setImmediate(r));
    expect(out.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n', '{"n":4}\n']);
    buffer.close();
  });

  it("writes a burst out at 64 KB without waiting for the turn to end", () => {
    const out = sink();
    const buffer = new LogBuffer(out);
    const line = `${"x".repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) buffer.write(line);
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0].length).toBe(64 * 1024);
    buffer.close();
  });

  it("close() writes what is gathered at once", () => {
    const out = sink();
    const buffer = new LogBuffer(out);
    buffer.write("last words\n");
    buffer.close();
    expect(out.writes).toEqual(["last words\n"]);
  });

  it("the app's request log line reaches the destination (LOG_LEVEL info, the default)", async () => {
    const out = sink();
    const t = await createTestApp({ LOG_LEVEL: "info" }, { seed: false, logDestination: new LogBuffer(out) });
    const app = t.app;
    try {
      await app.inject({ url: "/api/health" });
      await new Promise((r) => setImmediate(r));
      const lines = out.writes
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number });
      expect(lines).toContainEqual(expect.objectContaining({ msg: "request", url: "/api/health", status: 200 }));
    } finally {
      await t.close();
    }
  });

  it("writes one access line per request, routed or answered from memory, with a token in the address masked", async () => {
    const out = sink();
    const t = await createTestApp({ LOG_LEVEL: "info" }, { seed: false, logDestination: new LogBuffer(out) });
    const app = t.app;
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      // The second read of /api/packages is answered from memory, before routing (ReadCache.serveFast).
      for (const path of ["/api/packages", "/api/packages", "/api/health?token=s3cret-value"]) await (await fetch(`${base}${path}`)).text();
      await new Promise((r) => setImmediate(r));
      const text = out.writes.join("");
      const lines = text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === "request");
      expect(lines.map((l) => [l.url, l.status])).toEqual([
        ["/api/packages", 200],
        ["/api/packages", 200],
        ["/api/health?token=[hidden]", 200],
      ]);
      for (const line of lines) {
        expect(line).toMatchObject({ level: 30, method: "GET", ip: expect.any(String), ms: expect.any(Number) });
        expect(line.time).toEqual(expect.any(Number));
      }
      expect(lines[0].reqId).toEqual(expect.any(String));
      expect(text).not.toContain("s3cret-value");
    } finally {
      await t.close();
    }
  });
});
