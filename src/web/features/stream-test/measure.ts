// The stream test, measured for real with LibreSpeed's method against our own endpoints
// (GET /api/speedtest/download and /api/speedtest/ping):
//  - download: several parallel streams read byte by byte; the first moments (TCP slow start,
//    connection set-up) are discarded as warm-up, and the test stops once the figure is stable
//    or a byte budget is spent, so a phone on mobile data pays for tens of megabytes, not
//    hundreds;
//  - latency: sequential pings after one unmeasured warm-up ping; the median round trip;
//  - jitter: the mean absolute difference between consecutive ping round trips;
//  - packet loss: an estimate — the share of small probes that fail or time out. HTTP runs on
//    TCP, which re-sends lost packets, so a "lost" probe here is one that came back too late
//    or not at all.
// The math is in pure functions; the engine takes fetch and the clock from its caller so tests
// drive it without a network.
import { type StreamTestPhaseKey, type StreamTestResult, streamTestResult } from "@/shared/readiness";

export interface MeasureDeps {
  fetch: typeof fetch;
  /** a monotonic clock in ms (performance.now in the browser) */
  now: () => number;
}

export interface DownloadConfig {
  /** parallel streams */
  streams: number;
  /** bytes asked for per request; a stream asks again when one ends */
  requestBytes: number;
  /** the warm-up ends after this long ... */
  warmupMs: number;
  /** ... or once this many bytes arrived (fast lines), whichever comes first */
  warmupBytes: number;
  /** after the warm-up, this long is enough for a stable figure */
  measureMs: number;
  /** never longer than this, whatever the line */
  maxMs: number;
  /** the data budget: stop once this many bytes arrived */
  maxBytes: number;
}

export interface MeasureConfig {
  /** where the speed test endpoints live */
  baseUrl: string;
  download: DownloadConfig;
  ping: { count: number; timeoutMs: number };
  jitter: { count: number; timeoutMs: number };
  loss: { probes: number; concurrency: number; timeoutMs: number };
}

const MB = 1_000_000;

export const DEFAULT_CONFIG: MeasureConfig = {
  baseUrl: "/api/speedtest",
  download: {
    streams: 5,
    requestBytes: 16 * 1024 * 1024,
    warmupMs: 1200,
    warmupBytes: 12 * MB,
    measureMs: 4000,
    maxMs: 8000,
    maxBytes: 60 * MB,
  },
  ping: { count: 12, timeoutMs: 2000 },
  jitter: { count: 15, timeoutMs: 2000 },
  loss: { probes: 25, concurrency: 5, timeoutMs: 1000 },
};

/** The data budget in whole megabytes, for the card's note to people on mobile data. */
export const DATA_BUDGET_MB = Math.round(DEFAULT_CONFIG.download.maxBytes / MB);

// ---- the math ------------------------------------------------------------------------------

/** One point of the download: `bytes` arrived in total by time `t` (ms). */
export interface ByteSample {
  t: number;
  bytes: number;
}

/** Whether the warm-up is over at this sample (time since `start`, or bytes for fast lines). */
export function isPastWarmup(sample: ByteSample, start: number, config: Pick<DownloadConfig, "warmupMs" | "warmupBytes">): boolean {
  return sample.t - start >= config.warmupMs || sample.bytes >= config.warmupBytes;
}

/** Megabits per second for this many bytes in this many ms (0 for no time). */
export function megabitsPerSecond(bytes: number, ms: number): number {
  if (!(ms > 0) || !(bytes >= 0)) return 0;
  return (bytes * 8) / (ms / 1000) / MB;
}

/**
 * The download speed from the byte timeline: bits that arrived after the warm-up, divided by
 * the time after the warm-up. When the test ended before anything arrived after the warm-up
 * (a line so fast the budget ran out at once), the whole run is used instead.
 */
export function downloadMbps(
  timeline: readonly ByteSample[],
  start: number,
  config: Pick<DownloadConfig, "warmupMs" | "warmupBytes">,
): number {
  if (timeline.length === 0) return 0;
  const last = timeline[timeline.length - 1];
  const base = timeline.find((s) => isPastWarmup(s, start, config));
  if (base && base !== last && last.t > base.t) return megabitsPerSecond(last.bytes - base.bytes, last.t - base.t);
  return megabitsPerSecond(last.bytes, last.t - start);
}

/** The median of a list of numbers (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Jitter: the mean absolute difference between consecutive samples (0 for fewer than two). */
export function jitterMs(samples: readonly number[]): number {
  if (samples.length < 2) return 0;
  let sum = 0;
  for (let i = 1; i < samples.length; i++) sum += Math.abs(samples[i] - samples[i - 1]);
  return sum / (samples.length - 1);
}

/** Packet loss (estimate): the share of probes that failed or timed out, in percent. */
export function lossPercent(outcomes: readonly boolean[]): number {
  if (outcomes.length === 0) return 0;
  const lost = outcomes.filter((ok) => !ok).length;
  return (lost / outcomes.length) * 100;
}

// ---- the engine ----------------------------------------------------------------------------

export class StreamTestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StreamTestError";
  }
}

let counter = 0;
/** A query string no cache has seen (browsers, proxies and mobile carriers' boxes included). */
function cacheBust(): string {
  counter += 1;
  return `r=${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** An AbortController that follows `parent` and gives up on its own after `ms` (if given). */
function childController(parent: AbortSignal | undefined, ms?: number): { signal: AbortSignal; abort: () => void; done: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort(parent?.reason);
  if (parent?.aborted) abort();
  parent?.addEventListener("abort", abort, { once: true });
  const timer = ms === undefined ? undefined : setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), ms);
  return {
    signal: controller.signal,
    abort: () => controller.abort(new DOMException("stopped", "AbortError")),
    done: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", abort);
    },
  };
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError");
}

export interface DownloadMeasurement {
  mbps: number;
  bytes: number;
  ms: number;
}

/** Parallel download streams until the figure is stable, the budget is spent or time is up. */
export async function measureDownload(
  deps: MeasureDeps,
  baseUrl: string,
  config: DownloadConfig,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<DownloadMeasurement> {
  throwIfAborted(options.signal);
  const start = deps.now();
  const timeline: ByteSample[] = [{ t: start, bytes: 0 }];
  // One controller ends every stream: on our own stop (figure taken, budget spent, time up)
  // or when the caller cancels the test.
  const run = childController(options.signal);
  let total = 0;
  let warm: ByteSample | null = null;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    run.abort();
  };
  // A line that stalls sends no bytes to trigger the checks below, so time is also kept here.
  const timer = setTimeout(stop, config.maxMs);

  const count = (n: number) => {
    total += n;
    const sample = { t: deps.now(), bytes: total };
    timeline.push(sample);
    if (!warm && isPastWarmup(sample, start, config)) warm = sample;
    const elapsed = sample.t - start;
    options.onProgress?.(Math.min(1, Math.max(elapsed / (config.warmupMs + config.measureMs), total / config.maxBytes)));
    if (total >= config.maxBytes || elapsed >= config.maxMs || (warm && sample.t - warm.t >= config.measureMs)) stop();
  };

  const stream = async () => {
    while (!stopped) {
      const url = `${baseUrl}/download?bytes=${config.requestBytes}&${cacheBust()}`;
      const response = await deps.fetch(url, { signal: run.signal, cache: "no-store" });
      if (!response.ok || !response.body) throw new StreamTestError(`The download test answered ${response.status}.`);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        count(value.byteLength);
        if (stopped) {
          reader.cancel().catch(() => {});
          break;
        }
      }
    }
  };

  const errors: unknown[] = [];
  try {
    await Promise.all(
      Array.from({ length: config.streams }, () =>
        stream().catch((error: unknown) => {
          // Streams cut off by our own stop end with an abort: that is the plan, not a failure.
          if (!stopped) errors.push(error);
        }),
      ),
    );
  } finally {
    clearTimeout(timer);
    stopped = true;
    run.done();
  }
  throwIfAborted(options.signal);
  if (total === 0) {
    throw errors[0] instanceof Error ? errors[0] : new StreamTestError("No data arrived from the download test.");
  }
  const last = timeline[timeline.length - 1];
  options.onProgress?.(1);
  return { mbps: downloadMbps(timeline, start, config), bytes: total, ms: last.t - start };
}

/** One small request; its round trip in ms, or null when it failed or took longer than `timeoutMs`. */
export async function probe(deps: MeasureDeps, url: string, timeoutMs: number, parent?: AbortSignal): Promise<number | null> {
  const request = childController(parent, timeoutMs);
  const started = deps.now();
  try {
    const response = await deps.fetch(url, { signal: request.signal, cache: "no-store" });
    await response.text();
    if (!response.ok) return null;
    return deps.now() - started;
  } catch (error) {
    if (parent?.aborted) throw error;
    return null;
  } finally {
    request.done();
  }
}

/** `count` sequential pings after one unmeasured warm-up ping: the round trips that succeeded. */
export async function measurePings(
  deps: MeasureDeps,
  baseUrl: string,
  config: { count: number; timeoutMs: number },
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void; warmup?: boolean } = {},
): Promise<number[]> {
  const url = () => `${baseUrl}/ping?${cacheBust()}`;
  if (options.warmup !== false) await probe(deps, url(), config.timeoutMs, options.signal);
  const samples: number[] = [];
  for (let i = 0; i < config.count; i++) {
    throwIfAborted(options.signal);
    const rtt = await probe(deps, url(), config.timeoutMs, options.signal);
    if (rtt !== null) samples.push(rtt);
    options.onProgress?.((i + 1) / config.count);
  }
  // Fewer than a third answering is not a connection we can describe with a latency figure.
  if (samples.length < Math.max(2, Math.ceil(config.count / 3))) throw new StreamTestError("Too few pings were answered.");
  return samples;
}

/** Probes in small concurrent batches; true for each that came back in time. */
export async function measureLoss(
  deps: MeasureDeps,
  baseUrl: string,
  config: { probes: number; concurrency: number; timeoutMs: number },
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<boolean[]> {
  const outcomes: boolean[] = [];
  let next = 0;
  const worker = async () => {
    while (next < config.probes) {
      next += 1;
      throwIfAborted(options.signal);
      const rtt = await probe(deps, `${baseUrl}/ping?${cacheBust()}`, config.timeoutMs, options.signal);
      outcomes.push(rtt !== null);
      options.onProgress?.(outcomes.length / config.probes);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(config.concurrency, config.probes)) }, worker));
  return outcomes;
}

export interface RunOptions {
  deps?: MeasureDeps;
  config?: MeasureConfig;
  signal?: AbortSignal;
  /** the phase running and how far it is (0–1) */
  onProgress?: (phase: StreamTestPhaseKey, fraction: number) => void;
}

function browserDeps(): MeasureDeps {
  return { fetch: (input, init) => fetch(input, init), now: () => performance.now() };
}

/** The four phases in the spec's order (download, latency, jitter, packet loss), then the verdict. */
export async function runStreamTest({
  deps = browserDeps(),
  config = DEFAULT_CONFIG,
  signal,
  onProgress,
}: RunOptions = {}): Promise<StreamTestResult> {
  const report = (phase: StreamTestPhaseKey) => (fraction: number) => onProgress?.(phase, fraction);

  report("download")(0);
  const download = await measureDownload(deps, config.baseUrl, config.download, { signal, onProgress: report("download") });

  report("latency")(0);
  const latencySamples = await measurePings(deps, config.baseUrl, config.ping, { signal, onProgress: report("latency") });

  report("jitter")(0);
  const jitterSamples = await measurePings(deps, config.baseUrl, config.jitter, { signal, onProgress: report("jitter"), warmup: false });

  report("packetLoss")(0);
  const outcomes = await measureLoss(deps, config.baseUrl, config.loss, { signal, onProgress: report("packetLoss") });

  return streamTestResult({
    download: round(download.mbps, 1),
    ping: round(median(latencySamples), 1),
    jitter: round(jitterMs(jitterSamples), 1),
    packetLoss: round(lossPercent(outcomes), 1),
  });
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
