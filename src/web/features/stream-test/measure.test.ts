import { describe, expect, it } from "vitest";
import {
  type ByteSample,
  DEFAULT_CONFIG,
  type DownloadConfig,
  downloadMbps,
  isPastWarmup,
  jitterMs,
  lossPercent,
  type MeasureConfig,
  type MeasureDeps,
  measureDownload,
  measureLoss,
  measurePings,
  median,
  megabitsPerSecond,
  runStreamTest,
} from "./measure";

const MB = 1_000_000;

describe("the math", () => {
  it("megabits per second: bits over seconds", () => {
    expect(megabitsPerSecond(10 * MB, 1000)).toBe(80);
    expect(megabitsPerSecond(1.25 * MB, 500)).toBe(20);
    expect(megabitsPerSecond(5 * MB, 0)).toBe(0);
  });

  it("the warm-up ends after warmupMs, or earlier once warmupBytes arrived", () => {
    const config = { warmupMs: 1000, warmupBytes: 10 * MB };
    expect(isPastWarmup({ t: 999, bytes: 1 }, 0, config)).toBe(false);
    expect(isPastWarmup({ t: 1000, bytes: 1 }, 0, config)).toBe(true);
    expect(isPastWarmup({ t: 100, bytes: 10 * MB }, 0, config)).toBe(true);
  });

  it("the download speed discards the warm-up: only bytes and time after it count", () => {
    // A slow start (1 MB in the first second), then a steady 2.5 MB every 250 ms (80 Mbps).
    const timeline: ByteSample[] = [
      { t: 0, bytes: 0 },
      { t: 500, bytes: 0.5 * MB },
      { t: 1000, bytes: 1 * MB },
      { t: 1250, bytes: 3.5 * MB },
      { t: 1500, bytes: 6 * MB },
      { t: 1750, bytes: 8.5 * MB },
      { t: 2000, bytes: 11 * MB },
    ];
    const mbps = downloadMbps(timeline, 0, { warmupMs: 1000, warmupBytes: 100 * MB });
    expect(mbps).toBeCloseTo(80, 6);
    // The whole run, warm-up included, would have read lower.
    expect(megabitsPerSecond(11 * MB, 2000)).toBeCloseTo(44, 6);
  });

  it("a line so fast that nothing arrives after the warm-up falls back to the whole run", () => {
    const timeline: ByteSample[] = [
      { t: 0, bytes: 0 },
      { t: 40, bytes: 30 * MB },
    ];
    expect(downloadMbps(timeline, 0, { warmupMs: 1000, warmupBytes: 30 * MB })).toBe(6000);
    expect(downloadMbps([], 0, { warmupMs: 1000, warmupBytes: MB })).toBe(0);
  });

  it("median of odd and even lists", () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([])).toBeNaN();
  });

  it("jitter is the mean absolute difference of consecutive samples", () => {
    expect(jitterMs([10, 20, 15, 15])).toBe(5); // (10 + 5 + 0) / 3
    expect(jitterMs([50, 10, 50])).toBe(40);
    expect(jitterMs([42])).toBe(0);
  });

  it("packet loss is the share of failed probes, in percent", () => {
    expect(lossPercent([true, true, true, false])).toBe(25);
    expect(lossPercent(Array(20).fill(true))).toBe(0);
    expect(lossPercent([false, false])).toBe(100);
    expect(lossPercent([])).toBe(0);
  });
});

/** A clock the fake network moves forward. */
function fakeClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A download body that, for each chunk, moves the clock on by `msPerChunk(i)` and sends `bytes(i)`. */
function downloadResponse(clock: ReturnType<typeof fakeClock>, chunk: (i: number) => { ms: number; bytes: number }, signal?: AbortSignal) {
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        const next = chunk(i++);
        clock.advance(next.ms);
        controller.enqueue(new Uint8Array(next.bytes));
      },
      // No read-ahead: a chunk "arrives" (and the clock moves) only when the test reads it.
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200 });
}

const downloadConfig: DownloadConfig = {
  streams: 1,
  requestBytes: 1_000 * MB,
  warmupMs: 1000,
  warmupBytes: 1_000 * MB,
  measureMs: 2000,
  maxMs: 60_000,
  maxBytes: 1_000 * MB,
};

describe("measureDownload", () => {
  it("reads the streams, discards the warm-up and stops once the figure is stable", async () => {
    const clock = fakeClock();
    const urls: string[] = [];
    const deps: MeasureDeps = {
      now: clock.now,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        urls.push(String(input));
        // Warm-up: 100 kB per 100 ms (8 Mbps); then 1 MB per 100 ms (80 Mbps).
        return downloadResponse(
          clock,
          () => (clock.now() < 1000 ? { ms: 100, bytes: 100_000 } : { ms: 100, bytes: MB }),
          init?.signal ?? undefined,
        );
      }) as typeof fetch,
    };
    const fractions: number[] = [];
    const result = await measureDownload(deps, "/api/speedtest", downloadConfig, { onProgress: (f) => fractions.push(f) });
    expect(result.mbps).toBeCloseTo(80, 6);
    // 1 s warm-up + 2 s measuring, then it stops on its own.
    expect(result.ms).toBe(3000);
    expect(fractions.at(-1)).toBe(1);
    expect(urls[0]).toMatch(/^\/api\/speedtest\/download\?bytes=\d+&r=\w+$/);
  });

  it("stops at the data budget and asks again with a new cache-busting query when a response ends", async () => {
    const clock = fakeClock();
    const urls: string[] = [];
    const deps: MeasureDeps = {
      now: clock.now,
      fetch: (async (input: RequestInfo | URL) => {
        urls.push(String(input));
        // Each response: 5 chunks of 1 MB, 10 ms apart, then it ends.
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 5) return controller.close();
            sent += 1;
            clock.advance(10);
            controller.enqueue(new Uint8Array(MB));
          },
        });
        return new Response(body);
      }) as typeof fetch,
    };
    const result = await measureDownload(deps, "/api/speedtest", { ...downloadConfig, streams: 2, maxBytes: 12 * MB });
    expect(result.bytes).toBeGreaterThanOrEqual(12 * MB);
    expect(result.bytes).toBeLessThan(14 * MB);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it("fails when no data arrives", async () => {
    const deps: MeasureDeps = { now: () => 0, fetch: (async () => new Response("nope", { status: 503 })) as typeof fetch };
    await expect(measureDownload(deps, "/api/speedtest", downloadConfig)).rejects.toThrow(/503/);
  });
});

/** Ping responses whose round trips (on the fake clock) come from `rtts`; null = no answer. */
function pingDeps(rtts: (number | null)[]) {
  const clock = fakeClock();
  const urls: string[] = [];
  let i = 0;
  const deps: MeasureDeps = {
    now: clock.now,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      const rtt = rtts[i++ % rtts.length];
      if (rtt === null) {
        // Never answers: only the probe's timeout ends it.
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
      }
      clock.advance(rtt);
      return new Response("pong");
    }) as typeof fetch,
  };
  return { deps, urls };
}

describe("measurePings", () => {
  it("sends one unmeasured warm-up ping, then the round trips in order", async () => {
    const { deps, urls } = pingDeps([500, 20, 30, 25, 40]);
    const samples = await measurePings(deps, "/api/speedtest", { count: 4, timeoutMs: 1000 });
    expect(samples).toEqual([20, 30, 25, 40]);
    expect(urls).toHaveLength(5);
    expect(urls.every((u) => /^\/api\/speedtest\/ping\?r=\w+$/.test(u))).toBe(true);
    expect(median(samples)).toBe(27.5);
    expect(jitterMs(samples)).toBeCloseTo((10 + 5 + 15) / 3, 6);
  });

  it("gives up when too few pings are answered", async () => {
    const { deps } = pingDeps([null]);
    await expect(measurePings(deps, "/api/speedtest", { count: 3, timeoutMs: 5 }, { warmup: false })).rejects.toThrow(/Too few pings/);
  });
});

describe("measureLoss", () => {
  it("counts probes that time out or fail as lost", async () => {
    // Every fifth probe never answers (times out after 20 ms); the rest answer.
    const { deps } = pingDeps([10, 10, 10, 10, null]);
    const outcomes = await measureLoss(deps, "/api/speedtest", { probes: 20, concurrency: 4, timeoutMs: 20 });
    expect(outcomes).toHaveLength(20);
    expect(lossPercent(outcomes)).toBe(20);
  });

  it("counts error answers as lost", async () => {
    let i = 0;
    const deps: MeasureDeps = {
      now: () => 0,
      fetch: (async () => new Response("x", { status: i++ % 2 ? 500 : 200 })) as typeof fetch,
    };
    const outcomes = await measureLoss(deps, "/api/speedtest", { probes: 10, concurrency: 2, timeoutMs: 100 });
    expect(lossPercent(outcomes)).toBe(50);
  });
});

describe("runStreamTest", () => {
  it("runs the four phases in the spec's order and assesses the result", async () => {
    const clock = fakeClock();
    const deps: MeasureDeps = {
      now: clock.now,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input).includes("/download")) return downloadResponse(clock, () => ({ ms: 100, bytes: MB }), init?.signal ?? undefined);
        clock.advance(20);
        return new Response("pong");
      }) as typeof fetch,
    };
    const config: MeasureConfig = {
      ...DEFAULT_CONFIG,
      download: { ...downloadConfig },
      ping: { count: 5, timeoutMs: 1000 },
      jitter: { count: 5, timeoutMs: 1000 },
      loss: { probes: 10, concurrency: 2, timeoutMs: 1000 },
    };
    const phases: string[] = [];
    const result = await runStreamTest({
      deps,
      config,
      onProgress: (phase) => {
        if (phases.at(-1) !== phase) phases.push(phase);
      },
    });
    expect(phases).toEqual(["download", "latency", "jitter", "packetLoss"]);
    expect(result).toMatchObject({
      download: 80,
      ping: 20,
      jitter: 0,
      packetLoss: 0,
      iptvReadiness: "excellent",
      recommendedQuality: "4K",
    });
  });

  it("stops when the caller cancels", async () => {
    const controller = new AbortController();
    const { deps } = pingDeps([10]);
    controller.abort(new DOMException("cancelled", "AbortError"));
    await expect(runStreamTest({ deps, signal: controller.signal })).rejects.toThrow(/cancelled/);
  });
});
