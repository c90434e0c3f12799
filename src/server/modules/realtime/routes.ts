// GET /api/events?tables=a,b — the change feed as Server-Sent Events. Every process LISTENs on
// 'table_changes' (ChangeBus), so a change written through any process reaches the browsers
// connected to every process. Messages are plain `data: {"table","op","id"}` lines so that
// EventSource.onmessage receives them; a comment heartbeat keeps proxies from timing out.
// Streams are capped per client address (SSE_MAX_PER_ADDRESS) and per process (SSE_MAX_STREAMS,
// by default from the open-file limit): beyond either, 429 with Retry-After and the connection
// closed, so a flood of streams cannot take the file handles everyone else needs. A stream that
// has carried no change for SSE_IDLE_TIMEOUT_S is ended; a browser reconnects and refetches.
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isSessionLive, readAdminSession } from "@/server/auth/sessions";
import type { Change, ChangeBus } from "@/server/db/changes";
import { ADMIN_ONLY_TABLES, WATCHED_TABLES } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import type { ChangeEvent } from "@/shared/api";

export const HEARTBEAT_MS = 25_000;
/** EventSource reconnect delay, announced at the start of each stream. */
export const RETRY_MS = 1000;
export const MAX_TABLES = 50;
/** A subscriber whose socket has this much unsent data is dropped; its EventSource reconnects and refetches. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** Retry-After of a refused stream: a slot frees when another stream ends. */
export const REFUSED_RETRY_AFTER_S = 10;

export interface RealtimeOptions {
  /** heartbeat interval (tests shorten it); idle streams are looked for at the same pace */
  heartbeatMs?: number;
  /** tests: instead of SSE_IDLE_TIMEOUT_S */
  idleMs?: number;
}

/** The soft open-file limit of this process (Linux: /proc/self/limits), or null where unknown. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : null;
  } catch {
    return null;
  }
}

/**
 * Streams one process may hold: the open-file limit less headroom for everything else (database
 * connections, files, ordinary requests) — a fifth of it, at least 256 handles. 4,096 where
 * the limit is unknown.
 */
export function defaultMaxStreams(limit = openFileLimit()): number {
  if (!limit) return 4096;
  return Math.max(16, limit - Math.max(256, Math.ceil(limit / 5)));
}

/** Counts open streams per address and in all; take() refuses beyond either cap. */
export class StreamLimits {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    readonly perAddress: number,
    readonly perProcess: number,
  ) {}

  get open(): number {
    return this.total;
  }

  /** Reserve a stream for `address`; throws a 429 AppError when a cap is reached. */
  take(address: string): void {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.perAddress) throw refused("Too many live-update connections from your network. Close a tab or wait a moment.");
    if (this.total >= this.perProcess) throw refused("Live updates are busy right now. The page will reconnect by itself.");
    this.byAddress.set(address, mine + 1);
    this.total++;
  }

  release(address: string): void {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine <= 0) return;
    if (mine === 1) this.byAddress.delete(address);
    else this.byAddress.set(address, mine - 1);
    this.total--;
  }
}

function refused(message: string): AppError {
  // Connection: close — a refused stream gives its file handle back at once.
  return new AppError(429, "rate_limited", message, undefined, {
    "retry-after": String(REFUSED_RETRY_AFTER_S),
    connection: "close",
  });
}

const PUBLIC_TABLES: ReadonlySet<string> = new Set(WATCHED_TABLES.filter((t) => !ADMIN_ONLY_TABLES.includes(t)));
const ALL_TABLES: ReadonlySet<string> = new Set(WATCHED_TABLES);
const TABLE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

const querySchema = z.object({
  tables: z
    .preprocess((v) => (Array.isArray(v) ? v.join(",") : v), z.string().max(4000, "Too many tables.").optional())
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .refine((names) => names.length <= MAX_TABLES, `Ask for at most ${MAX_TABLES} tables.`)
    .refine((names) => names.every((name) => TABLE_NAME.test(name)), "Table names are lower-case letters, digits and underscores."),
});

const HEARTBEAT_FRAME = Buffer.from(": ping\n\n");
/**
 * The response's head and first frame, written to the socket in one go. The stream's body is
 * the frames themselves, ended by closing the connection (HTTP/1.1 §6.3: no length, no chunked
 * coding): each change is then one write of the same bytes to every socket, without Node's
 * response object framing each write as a chunk (three buffers a write, per stream).
 */
const STREAM_START = Buffer.from(
  [
    "HTTP/1.1 200 OK",
    "content-type: text/event-stream; charset=utf-8",
    "cache-control: no-cache, no-transform",
    "x-accel-buffering: no",
    "connection: close",
    "",
    `retry: ${RETRY_MS}\n\n`,
  ].join("\r\n"),
);

interface Subscriber {
  socket: Socket;
  tables: readonly string[];
  /** when a change (not a heartbeat) was last sent, or the stream opened */
  lastChangeAt: number;
}

/**
 * Fan-out of the change feed to open streams. One ChangeBus listener and one heartbeat timer
 * serve every stream (attached while at least one is open); a change is serialised once and
 * the same bytes go only to the streams that asked for its table.
 */
class FanOut {
  private readonly byTable = new Map<string, Set<Subscriber>>();
  private readonly open = new Set<Subscriber>();
  private detach: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: ChangeBus,
    private readonly heartbeatMs: number,
    private readonly idleMs: number,
  ) {}

  add(subscriber: Subscriber): void {
    this.open.add(subscriber);
    for (const table of subscriber.tables) {
      let set = this.byTable.get(table);
      if (!set) {
        set = new Set();
        this.byTable.set(table, set);
      }
      set.add(subscriber);
    }
    if (!this.detach) {
      const offChange = this.bus.onChange((change) => this.publish(change));
      const offResync = this.bus.onResync(() => this.resync());
      this.detach = () => {
        offChange();
        offResync();
      };
      this.heartbeat = setInterval(() => this.ping(), this.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  remove(subscriber: Subscriber): void {
    if (!this.open.delete(subscriber)) return;
    for (const table of subscriber.tables) {
      const set = this.byTable.get(table);
      set?.delete(subscriber);
      if (set?.size === 0) this.byTable.delete(table);
    }
    if (this.open.size === 0) this.stop();
  }

  /** Server shutdown: end every stream so close() is not held open by them. */
  closeAll(): void {
    for (const subscriber of this.open) subscriber.socket.end();
    this.open.clear();
    this.byTable.clear();
    this.stop();
  }

  private publish(change: Change): void {
    const subscribers = this.byTable.get(change.table);
    if (!subscribers) return;
    const event: ChangeEvent = { table: change.table, op: change.op, id: change.id };
    const frame = Buffer.from(`data: ${JSON.stringify(event)}\n\n`);
    const now = Date.now();
    for (const subscriber of subscribers) {
      subscriber.lastChangeAt = now;
      this.send(subscriber, frame);
    }
  }

  /** Changes may have been missed: tell every stream each of its tables changed, so it refetches. */
  private resync(): void {
    for (const subscriber of this.open) {
      subscriber.lastChangeAt = Date.now();
      for (const table of subscriber.tables) {
        const event: ChangeEvent = { table, op: "UPDATE", id: null };
        this.send(subscriber, Buffer.from(`data: ${JSON.stringify(event)}\n\n`));
      }
    }
  }

  /** The heartbeat; a stream idle for idleMs is ended instead (its 'close' handler removes it). */
  private ping(): void {
    const idleBefore = Date.now() - this.idleMs;
    for (const subscriber of this.open) {
      if (subscriber.lastChangeAt <= idleBefore) subscriber.socket.end();
      else this.send(subscriber, HEARTBEAT_FRAME);
    }
  }

  private send(subscriber: Subscriber, frame: Buffer): void {
    const { socket } = subscriber;
    if (socket.writableLength > MAX_BUFFERED_BYTES) {
      // Not reading: memory would grow without bound. Its 'close' handler removes it.
      socket.destroy();
      return;
    }
    socket.write(frame);
  }

  private stop(): void {
    this.detach?.();
    this.detach = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

const routes: FastifyPluginAsync<RealtimeOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const idleMs = options.idleMs ?? app.config.SSE_IDLE_TIMEOUT_S * 1000;
  const hub = new FanOut(app.changes, Math.min(heartbeatMs, idleMs), idleMs);
  const limits = new StreamLimits(app.config.SSE_MAX_PER_ADDRESS, app.config.SSE_MAX_STREAMS || defaultMaxStreams());
  app.addHook("preClose", async () => hub.closeAll());

  // No HEAD twin: it would hold a subscription open with nothing ever sent.
  app.get("/events", { schema: { querystring: querySchema }, exposeHeadRoute: false }, async (request, reply) => {
    // Reserved before anything is awaited, so a burst cannot pass the caps together; given back
    // when the stream ends (or never starts). request.ip honours TRUST_PROXY.
    const address = request.ip;
    limits.take(address);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      limits.release(address);
    };
    let admin: Awaited<ReturnType<typeof readAdminSession>>;
    try {
      // Admin-only tables (clients, payments, leads, content requests) need an admin session.
      admin = await readAdminSession(app, request);
    } catch (error) {
      release();
      throw error;
    }
    const visible = admin ? ALL_TABLES : PUBLIC_TABLES;
    const requested = request.query.tables;
    // Unknown or not-permitted names are ignored rather than refused: the browser asks for a
    // fixed list whatever the session, and an empty selection simply streams heartbeats.
    const tables = requested.length ? [...new Set(requested)].filter((t) => visible.has(t)) : [...visible];

    // The stream is written straight to the socket: no compression, no buffering by Fastify.
    reply.hijack();
    const socket = request.raw.socket as Socket;
    if (socket.destroyed) return release(); // gone while the session was looked up
    socket.setNoDelay(true);
    socket.setTimeout(0);
    socket.write(STREAM_START);

    const subscriber: Subscriber = { socket, tables, lastChangeAt: Date.now() };
    hub.add(subscriber);
    // An admin stream ends once its session is signed out, revoked or expired; the browser
    // reconnects and, without the session, gets the public tables only. Checked without
    // sliding the session, at the heartbeat's pace (admin streams are few).
    const recheck = admin
      ? setInterval(() => {
          isSessionLive(app.db, admin.sessionId).then(
            (live) => live || socket.end(),
            () => {}, // database briefly unreachable: keep the stream, check again next time
          );
        }, heartbeatMs)
      : null;
    const leave = () => {
      if (recheck) clearInterval(recheck);
      hub.remove(subscriber);
      release();
    };
    recheck?.unref();
    socket.once("close", leave);
    socket.on("error", leave);
  });
};

export default routes;
