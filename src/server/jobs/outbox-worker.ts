// Sends what the outbox holds: claims due messages (FOR UPDATE SKIP LOCKED, so several server
// processes share the work without sending twice), sends each through its transport, and
// records the result. Failures retry with exponential backoff; after MAX_ATTEMPTS a message is
// 'failed' with its last error. A channel without a transport is left waiting.
import { sql } from "drizzle-orm";
import type { EmailTransport } from "../adapters/email";
import type { WhatsAppTransport } from "../adapters/whatsapp";
import type { Db } from "../db/client";

export const MAX_ATTEMPTS = 8;
const BATCH = 25;
/** a 'sending' row older than this belonged to a process that died mid-send */
const STALE_SENDING_MS = 5 * 60_000;

/** 30 s, 1 min, 2 min, ... capped at 1 hour */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export interface Transports {
  email?: EmailTransport | null;
  whatsapp?: WhatsAppTransport | null;
}

interface ClaimedRow {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
}

export class OutboxWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly transports: Transports,
    private readonly intervalMs = 5_000,
  ) {}

  get channels(): string[] {
    return [this.transports.email ? "email" : null, this.transports.whatsapp ? "whatsapp" : null].filter((c): c is string => c !== null);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.nudge(), this.intervalMs);
    this.timer.unref();
    this.nudge();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** Ask for a pass soon (after an enqueue); coalesces while one is running. */
  nudge(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch(() => 0)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Send until nothing due is left; returns how many messages were attempted. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.tick();
      total += n;
      if (n < BATCH) return total;
    }
  }

  /** One batch. Exposed for tests. */
  async tick(): Promise<number> {
    const channels = this.channels;
    if (channels.length === 0) return 0;
    const channelList = sql.join(
      channels.map((c) => sql`${c}`),
      sql`, `,
    );
    const claimed = await this.db.execute(sql`
      UPDATE outbox SET status = 'sending', attempts = attempts + 1, updated_at = now()
      WHERE id IN (
        SELECT id FROM outbox
        WHERE channel IN (${channelList})
          AND ((status = 'pending' AND next_attempt_at <= now())
            OR (status = 'sending' AND updated_at < now() - make_interval(secs => ${STALE_SENDING_MS / 1000})))
        ORDER BY next_attempt_at, created_at
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, channel, recipient, subject, body, attempts`);
    const rows = (claimed as unknown as { rows: ClaimedRow[] }).rows;
    await Promise.all(rows.map((row) => this.sendOne(row)));
    return rows.length;
  }

  private async sendOne(row: ClaimedRow): Promise<void> {
    try {
      if (row.channel === "email") {
        if (!this.transports.email) throw new Error("no e-mail transport");
        await this.transports.email.send({ to: row.recipient, subject: row.subject, text: row.body });
      } else if (row.channel === "whatsapp") {
        if (!this.transports.whatsapp) throw new Error("no WhatsApp transport");
        // Enqueuers store WhatsApp recipients normalised (27…); keep digits only, defensively.
        await this.transports.whatsapp.send(row.recipient.replace(/\D/g, ""), row.body);
      } else {
        throw new Error(`unknown channel ${row.channel}`);
      }
      await this.db.execute(
        sql`UPDATE outbox SET status = 'sent', sent_at = now(), last_error = NULL, updated_at = now() WHERE id = ${row.id}`,
      );
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const final = row.attempts >= MAX_ATTEMPTS;
      const delaySeconds = backoffMs(row.attempts) / 1000;
      await this.db
        .execute(sql`
          UPDATE outbox SET
            status = ${final ? "failed" : "pending"},
            last_error = ${message},
            next_attempt_at = now() + make_interval(secs => ${delaySeconds}),
            updated_at = now()
          WHERE id = ${row.id}`)
        .catch(() => {});
    }
  }
}
