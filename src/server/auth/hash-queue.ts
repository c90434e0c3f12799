// The queue every scrypt call waits in (auth/passwords.ts). scrypt runs on libuv's thread pool,
// which file reads share (static files, the SPA): 40 sign-ins at once used to take every thread,
// and a 16 ms file took 6.6 s. At most `concurrency` hashes run at once, so part of the pool is
// always free for files; at most `maxWaiting` wait behind them. A sign-in beyond that is refused
// at once — 503 with Retry-After, in the error shape — rather than waiting without bound.
// Hashes the server makes for itself (a new account's password) wait, never refused.
import { availableParallelism } from "node:os";
import { AppError } from "@/server/lib/errors";

/** libuv's pool: UV_THREADPOOL_SIZE, else its default of 4. */
export function threadPoolSize(env: Record<string, string | undefined> = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/**
 * How many hashes may run at once: the pool less the share kept for file reads (half of it,
 * at least one thread), and no more than the cores less one (scrypt is CPU work: the event
 * loop keeps a core). At least one.
 */
export function defaultHashConcurrency(poolSize = threadPoolSize(), cores = availableParallelism()): number {
  const fileShare = Math.max(1, Math.floor(poolSize / 2));
  return Math.max(1, Math.min(poolSize - fileShare, cores - 1));
}

export class HashQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** a moving average of how long one hash takes, for Retry-After */
  private averageMs = 250;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error("the hash queue needs a concurrency of at least 1");
  }

  /** hashes running now and waiting (for tests and metrics) */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Runs `task` once a slot is free. With `refuse`, a full queue throws a 503 AppError with
   * Retry-After (the time the queue ahead would take) instead of waiting.
   */
  async run<T>(task: () => Promise<T>, { refuse = false }: { refuse?: boolean } = {}): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      if (refuse && this.waiting.length >= this.maxWaiting) throw this.busy();
      // The slot is handed over by the task finishing (running stays counted).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    const started = performance.now();
    try {
      return await task();
    } finally {
      this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private busy(): AppError {
    const seconds = Math.max(1, Math.ceil(((this.waiting.length / this.concurrency + 1) * this.averageMs) / 1000));
    return new AppError(503, "busy", "Too many sign-ins at once. Please try again in a few seconds.", undefined, {
      "retry-after": String(seconds),
    });
  }
}
