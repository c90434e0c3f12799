// The change feed over real HTTP: a socket per subscriber, rows written through the database,
// events read off the wire as a browser's EventSource would.
import { spawn } from "node:child_process";
import http, { type IncomingHttpHeaders } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "@/server/app";
import { ADMIN_COOKIE, CLIENT_COOKIE, createSession, deleteSessionsFor } from "@/server/auth/sessions";
import { testConfig } from "@/server/config";
import { admins, clients, leads, notices, packages } from "@/server/db/schema";
import { eventually, onPostgres, openTestDatabase, type TestDatabase } from "@/server/testing";
import type { ChangeEvent } from "@/shared/api";
import realtime, { MAX_TABLES, RETRY_MS } from "./routes";

interface Stream {
  status: number;
  headers: IncomingHttpHeaders;
  events: ChangeEvent[];
  comments: string[];
  fields: string[];
  ended: boolean;
  close(): void;
}

/** Open an SSE stream and parse it as it arrives (messages are separated by a blank line). */
function openStream(path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { accept: "text/event-stream", ...headers }, agent: false }, (res) => {
      const stream: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        fields: [],
        ended: false,
        close: () => req.destroy(),
      };
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          for (const line of buffer.slice(0, cut).split("\n")) {
            if (line.startsWith(":")) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith("data: ")) stream.events.push(JSON.parse(line.slice(6)) as ChangeEvent);
            else stream.fields.push(line);
          }
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf("\n\n");
        }
      });
      res.on("end", () => {
        stream.ended = true;
      });
      res.on("error", () => {});
      resolve(stream);
    });
    req.on("error", reject);
  });
}

const arrived = (stream: Stream, table: string, id: string) =>
  eventually(() => {
    const event = stream.events.find((e) => e.table === table && e.id === id);
    expect(event).toBeDefined();
    return event as ChangeEvent;
  }, 10_000);

let app: App;
let database: TestDatabase;
let base: string;
let closed = false;
/** ChangeBus listeners before any stream opened (the read cache's, ...) */
let baseline: number;
const busListeners = () => app.changes.listenerCount("change");

async function insertPackage(name: string): Promise<string> {
  const [row] = await app.db.insert(packages).values({ name, price: 120, duration: "1 Month" }).returning({ id: packages.id });
  return row.id;
}

async function insertNotice(title: string): Promise<string> {
  const [row] = await app.db.insert(notices).values({ title, body: "b" }).returning({ id: notices.id });
  return row.id;
}

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp(testConfig(), { database, seed: false });
  // A second mount with a short heartbeat, on the full app (compression, helmet, cookies).
  await app.register(realtime, { prefix: "/hb", heartbeatMs: 100 });
  // And one whose streams count as idle after 400 ms without a change.
  await app.register(realtime, { prefix: "/idle", heartbeatMs: 100, idleMs: 400 });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  baseline = busListeners();
});

afterAll(async () => {
  if (!closed) await app?.close();
  await database?.close();
});

describe("GET /api/events", () => {
  // How fast is the bench's to say (docs/performance.md, the change feed); here: that it arrives.
  it("streams a new row to a subscriber as it is written, uncompressed, with retry first", async () => {
    const stream = await openStream("/api/events?tables=packages", { "accept-encoding": "gzip, deflate, br" });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
      expect(stream.headers["cache-control"]).toContain("no-cache");
      expect(stream.headers["x-accel-buffering"]).toBe("no");
      expect(stream.headers["content-encoding"]).toBeUndefined();
      await eventually(() => expect(stream.fields).toContain(`retry: ${RETRY_MS}`), 1000);

      const id = await insertPackage("Live package");
      const event = await arrived(stream, "packages", id);
      expect(event).toEqual({ table: "packages", op: "INSERT", id });

      await app.db.delete(packages);
      await eventually(() => expect(stream.events).toContainEqual({ table: "packages", op: "DELETE", id }), 1000);
    } finally {
      stream.close();
    }
  });

  it("sends each change as its bare frame on the socket: no chunked coding, the body ends with the connection", async () => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.write("GET /api/events?tables=packages HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n");
    try {
      await eventually(() => expect(received).toContain(`retry: ${RETRY_MS}\n\n`), 1000);
      const [head, body] = received.split("\r\n\r\n");
      expect(head.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
      expect(head.toLowerCase()).toContain("connection: close");
      expect(head.toLowerCase()).not.toContain("transfer-encoding");
      expect(head.toLowerCase()).not.toContain("content-length");
      expect(body).toBe(`retry: ${RETRY_MS}\n\n`);
      const id = await insertPackage("Framed package");
      const frame = `data: ${JSON.stringify({ table: "packages", op: "INSERT", id })}\n\n`;
      await eventually(() => expect(received.endsWith(frame)).toBe(true), 1000);
      expect(received.split("\r\n\r\n")[1]).toBe(`retry: ${RETRY_MS}\n\n${frame}`);
    } finally {
      socket.destroy();
      await app.db.delete(packages);
    }
  });

  it("sends only the tables asked for, ignoring unknown names", async () => {
    const onlyNotices = await openStream("/api/events?tables=notices,no_such_table");
    const both = await openStream("/api/events?tables=packages, notices");
    try {
      const packageId = await insertPackage("Filtered");
      // Changes arrive in commit order: once the later notice arrives, the package would have too.
      const noticeId = await insertNotice("Maintenance");
      await arrived(onlyNotices, "notices", noticeId);
      await arrived(both, "notices", noticeId);
      await arrived(both, "packages", packageId);
      expect(onlyNotices.events.map((e) => e.table)).toEqual(["notices"]);
    } finally {
      onlyNotices.close();
      both.close();
    }
  });

  it("sends admin-only tables to an admin session only", async () => {
    const [admin] = await app.db.insert(admins).values({ email: "rt-admin@example.test", password_hash: "x" }).returning();
    const [client] = await app.db.insert(clients).values({ username: "rt-client", password_hash: "x", full_name: "Client" }).returning();
    const adminSession = await createSession(app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
    const clientSession = await createSession(app.db, { kind: "client", clientId: client.id, ttlHours: 1 });

    const anonymousAll = await openStream("/api/events");
    const anonymousAsking = await openStream("/api/events?tables=leads,clients,packages");
    const clientAsking = await openStream("/api/events?tables=leads,clients,packages", {
      cookie: `${CLIENT_COOKIE}=${clientSession.token}`,
    });
    // A client token presented as an admin cookie is not an admin session.
    const forged = await openStream("/api/events?tables=leads,clients,packages", { cookie: `${ADMIN_COOKIE}=${clientSession.token}` });
    const adminAll = await openStream("/api/events", { cookie: `${ADMIN_COOKIE}=${adminSession.token}` });
    const adminAsking = await openStream("/api/events?tables=leads,clients", { cookie: `${ADMIN_COOKIE}=${adminSession.token}` });
    const anonymous = [anonymousAll, anonymousAsking, clientAsking, forged];
    try {
      const [lead] = await app.db.insert(leads).values({ form_type: "order", name: "Lerato" }).returning({ id: leads.id });
      const [newClient] = await app.db
        .insert(clients)
        .values({ username: "rt-client-2", password_hash: "x", full_name: "Second" })
        .returning({ id: clients.id });
      const sentinel = await insertPackage("Sentinel");

      for (const stream of [adminAll, adminAsking]) {
        await arrived(stream, "leads", lead.id);
        await arrived(stream, "clients", newClient.id);
      }
      await arrived(adminAll, "packages", sentinel);
      for (const stream of anonymous) {
        await arrived(stream, "packages", sentinel);
        expect(stream.events.filter((e) => e.table !== "packages")).toEqual([]);
      }
    } finally {
      for (const stream of [...anonymous, adminAll, adminAsking]) stream.close();
    }
  });

  it("ends an admin stream once its session is revoked; the reconnect gets public tables only", async () => {
    const [admin] = await app.db.insert(admins).values({ email: "rt-revoked@example.test", password_hash: "x" }).returning();
    const { token } = await createSession(app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
    const cookie = { cookie: `${ADMIN_COOKIE}=${token}` };
    // The /hb mount re-checks admin sessions every 100 ms.
    const stream = await openStream("/hb/events?tables=leads", cookie);
    const [lead] = await app.db.insert(leads).values({ form_type: "interest", name: "Before" }).returning({ id: leads.id });
    await arrived(stream, "leads", lead.id);
    // Still open after several checks while the session lives (and the check does not slide it):
    // the re-check runs at the heartbeat's pace, so three more heartbeats are three more checks.
    const pings = stream.comments.filter((c) => c === "ping").length;
    await eventually(() => expect(stream.comments.filter((c) => c === "ping").length).toBeGreaterThanOrEqual(pings + 3), 5000);
    expect(stream.ended).toBe(false);

    await deleteSessionsFor(app.db, { adminId: admin.id });
    await eventually(() => expect(stream.ended).toBe(true), 2000);

    const again = await openStream("/hb/events?tables=leads,notices", cookie);
    try {
      await app.db.insert(leads).values({ form_type: "interest", name: "After" });
      const noticeId = await insertNotice("Sentinel");
      await arrived(again, "notices", noticeId);
      expect(again.events.map((e) => e.table)).toEqual(["notices"]);
    } finally {
      again.close();
    }
  });

  it("refuses a bad tables value with the error shape", async () => {
    const tooMany = Array.from({ length: MAX_TABLES + 1 }, (_, i) => `t${i}`).join(",");
    for (const url of [`/api/events?tables=${tooMany}`, "/api/events?tables=packages;drop", "/api/events?tables=Packages"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe("validation");
      expect(typeof body.error.message).toBe("string");
      expect(Object.keys(body.error.fields)).toEqual(["tables"]);
    }
    const fifty = Array.from({ length: MAX_TABLES }, (_, i) => `t${i}`).join(",");
    const ok = await openStream(`/api/events?tables=${fifty}`);
    expect(ok.status).toBe(200);
    ok.close();
    // No HEAD twin holding a silent subscription open.
    expect((await app.inject({ method: "HEAD", url: "/api/events" })).statusCode).toBe(404);
  });

  it("sends a heartbeat comment at the configured interval", async () => {
    const stream = await openStream("/hb/events?tables=packages");
    try {
      await eventually(() => expect(stream.comments.filter((c) => c === "ping").length).toBeGreaterThanOrEqual(2), 2000);
      expect(stream.events).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("ends a stream that has carried no change for the idle time; a change keeps it open", async () => {
    const quiet = await openStream("/idle/events?tables=packages");
    const busy = await openStream("/idle/events?tables=notices");
    const longLived = await openStream("/api/events?tables=packages");
    try {
      // A change to busy's table every 150 ms (inside the 400 ms idle time) until quiet, whose
      // table never changes, has been ended, and for four changes (600 ms) more.
      const feed = async () => {
        const id = await insertNotice("Keep-alive");
        await arrived(busy, "notices", id);
        await new Promise((r) => setTimeout(r, 150));
      };
      await eventually(async () => {
        await feed();
        expect(quiet.ended).toBe(true);
      }, 5000);
      for (let i = 0; i < 4; i++) await feed();
      // busy opened with quiet and has outlived it by more than the idle time: its changes kept it.
      expect(busy.ended).toBe(false);
      // Then nothing: busy ends too, within the idle time plus a heartbeat; the 30-minute stream stays.
      await eventually(() => expect(busy.ended).toBe(true), 1500);
      expect(longLived.ended).toBe(false);
    } finally {
      for (const stream of [quiet, busy, longLived]) stream.close();
    }
  });

  it("removes its change-bus listener when the last subscriber leaves", async () => {
    // Earlier tests' streams are gone (closing is asynchronous): back to the app's own listeners.
    await eventually(() => expect(busListeners()).toBe(baseline), 1000);
    const streams = await Promise.all([openStream("/api/events"), openStream("/api/events?tables=notices"), openStream("/hb/events")]);
    await eventually(() => expect(streams.every((s) => s.fields.length > 0)).toBe(true), 1000);
    // One listener per mounted fan-out, not one per connection.
    expect(busListeners()).toBe(baseline + 2);
    streams[0].close();
    streams[2].close();
    await eventually(() => expect(busListeners()).toBe(baseline + 1), 1000);
    // The remaining subscriber still receives changes.
    const id = await insertNotice("Still here");
    await arrived(streams[1], "notices", id);
    streams[1].close();
    await eventually(() => expect(busListeners()).toBe(baseline), 1000);
  });

  it.runIf(onPostgres())("delivers a change written by another process on the same database", async () => {
    const stream = await openStream("/api/events?tables=packages");
    try {
      const script = `
        const pg = require("pg");
        const c = new pg.Client({ connectionString: process.env.SD_DB_URL });
        c.connect()
          .then(() => c.query("insert into packages (name, price, duration) values ('From elsewhere', 250, '3 Months') returning id"))
          .then((r) => { process.stdout.write(r.rows[0].id); return c.end(); })
          .catch((e) => { console.error(e); process.exit(1); });`;
      const id = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["-e", script], { env: { ...process.env, SD_DB_URL: database.url }, cwd: process.cwd() });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        child.stderr.on("data", (d) => {
          err += d;
        });
        child.on("error", reject);
        child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`writer exited ${code}: ${err}`))));
      });
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await arrived(stream, "packages", id)).toEqual({ table: "packages", op: "INSERT", id });
    } finally {
      stream.close();
    }
  });

  it("ends open streams when the server closes, so close() is not held up", async () => {
    const stream = await openStream("/api/events");
    await eventually(() => expect(stream.fields.length).toBeGreaterThan(0), 1000);
    closed = true;
    // The stream would stay open for its 30-minute idle time: close() resolving at all (within the
    // test's time) means it did not wait for it, and the stream was ended by the server.
    await app.close();
    await eventually(() => expect(stream.ended).toBe(true), 1000);
  });
});
