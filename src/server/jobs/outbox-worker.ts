// Sends what the outbox holds: claims due messages (FOR UPDATE SKIP LOCKED, so several server
// processes share the work without sending twice), sends each through its transport, and
// records the result. Failures retry with exponential backoff; after MAX_ATTEMPTS — or at once
// when resending cannot help (a request the service refuses as wrong) — a message is 'failed'
// with its last error. A message's secret is decrypted only here, as it is sent.
//
// WhatsApp (docs/architecture.md, "Integrations") is never left waiting silently:
// - no Cloud API: each message moves to 'owner', the dashboard's "To send on WhatsApp" queue
//   (its wa.me link), and an e-mail copy is queued when the person has an address;
// - Cloud API: free text inside the number's 24-hour window, else the approved template set
//   for the message's kind; with no usable template, the e-mail copy carries it ('rerouted'),
//   or, with no address, the owner's queue.
// A one-time code (lib/verification.ts) is queued on WhatsApp only when it can arrive now: it goes
// as free text inside the window, else as its authentication template. Should neither be possible
// by the time it is sent (the window closed, the template switched off), or should the Cloud API
// be gone, it fails at once: never the owner's queue (it would expire waiting) and never an
// e-mail copy (a copy elsewhere proves nothing).
// E-mail without SMTP_URL waits, unsent and nothing lost.
//
// Every failure is logged. Writing a message's result is tried again a few times before the
// worker moves on; should it still not be written, the row keeps its claim ('sending') and this
// process writes the result at the start of each later pass, never claiming that row again
// meanwhile: a message that went is never sent again because its 'sent' could not be written.
// (Another process takes over a 'sending' row only once it is STALE_SENDING_MS old: the path for
// a process that died mid-send.)
import { and, eq, inArray, sql } from "drizzle-orm";
import type { EmailAttachment, EmailTransport } from "@/server/adapters/email";
import { WhatsAppSendError, type WhatsAppTransport, WINDOW_CLOSED_CODES } from "@/server/adapters/whatsapp";
import type { Db } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
import { clients, leads, outbox, siteBranding, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { withSecret } from "@/server/lib/outbox";
import { loadAlertRoute, outboxFailedAlert, queueOwnerAlert } from "@/server/lib/owner-alerts";
import { PassLoop } from "@/server/lib/pass-loop";
import { open } from "@/server/lib/secret-box";
import { VERIFICATION_KIND } from "@/server/lib/verification";
import { WHATSAPP_WINDOW_HOURS } from "@/shared/messaging";
import { OWNER_ALERT_KIND } from "@/shared/owner-alerts";
import { buildWhatsAppLink } from "@/shared/whatsapp";

export const MAX_ATTEMPTS = 8;
const BATCH = 25;
/** a 'sending' row older than this belonged to a process that died mid-send */
const STALE_SENDING_MS = 5 * 60_000;
/** free text is sent only this far inside the window, so it is never refused at the edge */
const WINDOW_MARGIN_MINUTES = 5;
/** older messages (left from before the owner's queue existed) get no automatic e-mail copy: it would arrive stale */
const EMAIL_COPY_MAX_AGE_HOURS = 48;
/** waits between the tries of writing a message's result (then it is left to the next pass) */
const RECORD_RETRY_MS = [100, 500];

/** Where the worker reports what went wrong (the server's logger). */
export interface OutboxLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** 30 s, 1 min, 2 min, ... capped at 1 hour */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export interface Transports {
  email?: EmailTransport | null;
  whatsapp?: WhatsAppTransport | null;
  /** renders a row's attachment ('invoice:INV-000001') when it is sent; null when there is no such document */
  documents?: ((ref: string) => Promise<EmailAttachment | null>) | null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Row = typeof outbox.$inferSelect;

/** A failure that sending again cannot mend: the message fails now, with this as its error. */
class PermanentFailure extends Error {}

type Outcome = { kind: "sent"; via: string; wamid?: string } | { kind: "routed"; status: "owner" | "rerouted"; note: string };

const CODE_UNSENDABLE = "The WhatsApp Cloud API is not set up: a one-time code cannot go on WhatsApp.";
const OWNER_NOTE = "The WhatsApp Cloud API is not set up: send it from the dashboard (To send on WhatsApp).";

export class OutboxWorker {
  private readonly passes: PassLoop;
  /** e-mail copies queued by this pass: sent in the same drain, not at the next timer */
  private copies = 0;
  /** results sent or failed but not yet written (the database refused the write): written first thing each pass */
  private readonly unrecorded = new Map<string, { what: string; write: () => Promise<unknown> }>();

  constructor(
    private readonly db: Db,
    private readonly transports: Transports,
    intervalMs = 5_000,
    /** publicUrl: where the dashboard is, for the owner's alert about a message given up on; log: where failures are told */
    private readonly options: { publicUrl?: string; log?: OutboxLog } = {},
  ) {
    this.passes = new PassLoop(() => this.pass(), intervalMs);
  }

  get channels(): string[] {
    return [this.transports.email ? "email" : null, this.transports.whatsapp ? "whatsapp" : null].filter((c): c is string => c !== null);
  }

  /** Whether WhatsApp goes through the Cloud API (else the owner sends it by hand). */
  get cloudApi(): boolean {
    return Boolean(this.transports.whatsapp);
  }

  /** Whether e-mail leaves the server now (SMTP_URL), else it waits in the outbox for the owner to read. */
  get mailer(): boolean {
    return Boolean(this.transports.email);
  }

  /** Where a one-time code can go now (lib/code-route.ts, codeRoute): a code only travels by a transport. */
  get codeTransports(): { cloudApi: boolean; email: boolean } {
    return { cloudApi: this.cloudApi, email: this.mailer };
  }

  start(): void {
    this.passes.start();
  }

  async stop(): Promise<void> {
    await this.passes.stop();
    await this.writeUnrecorded();
  }

  /** Messages whose result this process holds but could not write yet (their rows stay claimed). */
  get unwritten(): string[] {
    return [...this.unrecorded.keys()];
  }

  /** Ask for a pass soon (after an enqueue); coalesces while one is running. */
  nudge(): void {
    this.passes.request();
  }

  /**
   * Send until nothing due is left; returns how many messages were attempted or routed. A pass
   * already under way (a nudge) finishes first, and one that started beside this (a nudge or the
   * timer claiming a row first) is waited for too, so what any pass held is done when this returns.
   */
  async drain(): Promise<number> {
    await this.passes.settled();
    const n = await this.pass();
    await this.passes.settled();
    return n;
  }

  private async pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.tick();
      total += n;
      const copies = this.copies;
      this.copies = 0;
      if (n < BATCH && copies === 0) return total;
    }
  }

  /** One batch. Exposed for tests. */
  async tick(): Promise<number> {
    await this.writeUnrecorded();
    const routed = this.transports.whatsapp ? 0 : (await this.queueForOwner()) + (await this.failUnsendableCodes());
    const channels = this.channels;
    if (channels.length === 0) return routed;
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
          ${
            this.unrecorded.size
              ? sql`AND id NOT IN (${sql.join(
                  [...this.unrecorded.keys()].map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        ORDER BY next_attempt_at, created_at
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id`);
    const ids = rowsOf<{ id: string }>(claimed).map((r) => r.id);
    if (ids.length === 0) return routed;
    const rows = await this.db.select().from(outbox).where(inArray(outbox.id, ids));
    await Promise.all(rows.map((row) => this.sendOne(row)));
    return routed + rows.length;
  }

  private async sendOne(row: Row): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await this.deliver(row);
    } catch (error) {
      await this.recordFailure(row, error);
      return;
    }
    // Sent (or routed): from here on, a failure is one of writing it down, never a reason to send again.
    await this.record(row, outcome.kind === "sent" ? "sent" : "routed", () => this.recordOutcome(row, outcome));
  }

  private async recordOutcome(row: Row, outcome: Outcome): Promise<void> {
    if (outcome.kind === "routed") {
      await this.db.transaction(async (tx) => {
        const copy = await this.emailCopy(tx, row);
        const status = outcome.status === "rerouted" && !copy ? "owner" : outcome.status;
        await tx
          .update(outbox)
          .set({
            status,
            note: `${outcome.note} ${copy ?? "Send it from the dashboard (To send on WhatsApp)."}`,
            wa_link: row.wa_link ?? (row.secret_enc ? null : buildWhatsAppLink(row.recipient, row.body)),
            updated_at: sql`now()`,
          })
          .where(eq(outbox.id, row.id));
      });
      return;
    }
    await this.db
      .update(outbox)
      .set({
        status: "sent",
        sent_at: sql`now()`,
        last_error: null,
        sent_via: outcome.via,
        wamid: outcome.wamid ?? null,
        updated_at: sql`now()`,
      })
      .where(and(eq(outbox.id, row.id), eq(outbox.status, "sending")));
  }

  private async recordFailure(row: Row, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    const permanent = error instanceof PermanentFailure || (error instanceof WhatsAppSendError && error.permanent);
    const final = permanent || row.attempts >= MAX_ATTEMPTS;
    const delaySeconds = backoffMs(row.attempts) / 1000;
    this.options.log?.warn(
      { err: error, outbox: row.id, kind: row.kind, channel: row.channel, attempts: row.attempts, final },
      final ? "outbox message given up on" : "outbox message not sent: it is tried again",
    );
    const write = (executor: Pick<Db, "execute">) =>
      executor.execute(sql`
        UPDATE outbox SET
          status = ${final ? "failed" : "pending"},
          last_error = ${message},
          next_attempt_at = now() + make_interval(secs => ${delaySeconds}),
          updated_at = now()
        WHERE id = ${row.id} AND status = 'sending'`);
    if (!final) {
      await this.record(row, "failure", () => write(this.db));
      return;
    }
    // Given up: the owner hears of it once, with the failure (lib/owner-alerts.ts). Should the
    // alert not queue, the failure is still recorded.
    await this.record(row, "failure", async () => {
      try {
        await this.db.transaction(async (tx) => {
          await write(tx);
          if (await this.alertFailure(tx, row, message)) this.copies++;
        });
      } catch (alert) {
        this.options.log?.warn({ err: alert, outbox: row.id }, "owner's alert about a failed message not queued");
        await write(this.db);
      }
    });
  }

  /**
   * Write a message's result, trying again (RECORD_RETRY_MS) before moving on; still refused, the
   * row keeps its claim and the write waits for the next pass (writeUnrecorded), logged each time.
   */
  private async record(row: Row, what: string, write: () => Promise<unknown>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        return;
      } catch (error) {
        const last = attempt >= RECORD_RETRY_MS.length;
        this.options.log?.error(
          { err: error, outbox: row.id, kind: row.kind, result: what, try: attempt + 1 },
          last ? "outbox result not written: the message stays claimed until it is" : "outbox result not written: trying again",
        );
        if (last) {
          this.unrecorded.set(row.id, { what, write });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS[attempt]));
      }
    }
  }

  private async writeUnrecorded(): Promise<void> {
    for (const [id, pending] of this.unrecorded) {
      try {
        await pending.write();
        this.unrecorded.delete(id);
      } catch (error) {
        this.options.log?.error(
          { err: error, outbox: id, result: pending.what },
          "outbox result still not written: the message stays claimed",
        );
      }
    }
  }

  /** The owner's alert about a message given up on; none about an alert itself (it would go the same broken way). */
  private async alertFailure(tx: Tx, row: Row, error: string): Promise<number> {
    if (row.kind === OWNER_ALERT_KIND) return 0;
    const person = (await this.person(tx, row)).name;
    return queueOwnerAlert(
      tx,
      await loadAlertRoute(tx, this.cloudApi),
      outboxFailedAlert(this.options.publicUrl ?? "", row, person, error),
    );
  }

  private async attachment(ref: string): Promise<EmailAttachment> {
    // A document that failed to render (not one that does not exist) is tried again with the message.
    const file = this.transports.documents
      ? await this.transports.documents(ref).catch((error: unknown) => {
          throw new Error(
            `the attached document ${ref} could not be made (tried again later): ${error instanceof Error ? error.message : String(error)}`,
            {
              cause: error,
            },
          );
        })
      : null;
    if (!file) throw new PermanentFailure(`the attached document ${ref} does not exist`);
    return file;
  }

  private async deliver(row: Row): Promise<Outcome> {
    const secret = row.secret_enc ? await open(this.db, row.secret_enc).catch(permanent) : null;
    const text = withSecret(row.body, secret);
    if (row.channel === "email") {
      if (!this.transports.email) throw new Error("no e-mail transport");
      const attachments = row.attachment ? [await this.attachment(row.attachment)] : undefined;
      await this.transports.email.send({ to: row.recipient, subject: row.subject, text, attachments });
      return { kind: "sent", via: this.transports.email.name };
    }
    if (row.channel !== "whatsapp") throw new PermanentFailure(`unknown channel ${row.channel}`);
    const whatsapp = this.transports.whatsapp;
    if (!whatsapp) return { kind: "routed", status: "owner", note: OWNER_NOTE };
    // Enqueuers store WhatsApp recipients normalised (27…); keep digits only, defensively.
    const to = row.recipient.replace(/\D/g, "");

    // Inside the window free text goes, a one-time code too; outside it only a template (Meta's rule).
    const code = row.kind === VERIFICATION_KIND;
    if (await this.windowOpen(to)) {
      try {
        const sent = await whatsapp.send(to, text);
        return { kind: "sent", via: "cloud-text", wamid: sent.id };
      } catch (error) {
        // Meta saw the window closed (our record of their last message is older than theirs): a template can still go.
        if (!(error instanceof WhatsAppSendError && error.code !== null && WINDOW_CLOSED_CODES.has(error.code))) throw error;
      }
    }

    const [template] = await this.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.kind, row.kind));
    if (!template?.enabled) {
      const why = template
        ? `The WhatsApp template for ${row.kind} messages is switched off`
        : `No WhatsApp template is set for ${row.kind || "these"} messages`;
      if (code)
        throw new PermanentFailure(
          `${why}, and ${to} has not written to us in the last ${WHATSAPP_WINDOW_HOURS} hours: a code cannot reach them.`,
        );
      return {
        kind: "routed",
        status: "rerouted",
        note: `${why}, and ${to} has not written to us in the last ${WHATSAPP_WINDOW_HOURS} hours.`,
      };
    }
    const values = await this.variables(row, text, secret);
    const missing = template.params.filter((name) => !values[name]);
    if (missing.length) {
      throw new PermanentFailure(
        `The WhatsApp template ${template.template_name} (for ${row.kind} messages) uses ${missing.map((m) => `{{${m}}}`).join(", ")}, ` +
          `which this message does not have. It has: ${Object.keys(values).join(", ")}.`,
      );
    }
    const sent = await whatsapp.sendTemplate(to, {
      name: template.template_name,
      language: template.language_code,
      parameters: template.params.map((name) => values[name]),
      // An authentication template's copy-code button carries the code too.
      ...(code && secret ? { copyCode: secret } : {}),
    });
    return { kind: "sent", via: `cloud-template:${template.template_name}`, wamid: sent.id };
  }

  private async windowOpen(number: string): Promise<boolean> {
    const [open] = await this.db
      .select({ number: whatsappWindows.number })
      .from(whatsappWindows)
      .where(
        and(
          eq(whatsappWindows.number, number),
          sql`${whatsappWindows.last_inbound_at} > now() - make_interval(mins => ${WHATSAPP_WINDOW_HOURS * 60 - WINDOW_MARGIN_MINUTES})`,
        ),
      );
    return Boolean(open);
  }

  /** What a template's parameters may name: the sender's vars and the built-ins, each on one line as Meta requires. */
  private async variables(row: Row, text: string, secret: string | null): Promise<Record<string, string>> {
    const person = await this.person(this.db, row);
    const values: Record<string, string> = {
      ...row.template_vars,
      name: person.name.split(/\s+/)[0] ?? "",
      business: await this.companyName(this.db),
      body: text,
      ...(secret ? { secret } : {}),
    };
    const oneLine = (v: string) =>
      String(v)
        .replace(/\s*[\r\n\t]+\s*/g, " · ")
        .replace(/ {4,}/g, "   ")
        .trim();
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, oneLine(v)]));
  }

  private async person(db: Pick<Db, "select">, row: Pick<Row, "client_id" | "lead_id">): Promise<{ name: string; email: string }> {
    if (row.client_id) {
      const [client] = await db
        .select({ name: clients.full_name, email: clients.email })
        .from(clients)
        .where(eq(clients.id, row.client_id));
      if (client) return client;
    }
    if (row.lead_id) {
      const [lead] = await db.select({ name: leads.name, email: leads.email }).from(leads).where(eq(leads.id, row.lead_id));
      if (lead) return lead;
    }
    return { name: "", email: "" };
  }

  private async companyName(db: Pick<Db, "select">): Promise<string> {
    const [row] = await db
      .select({ value: siteBranding.setting_value })
      .from(siteBranding)
      .where(and(eq(siteBranding.setting_name, "company_name"), eq(siteBranding.is_active, true)));
    return row?.value || "StreamDesk";
  }

  /**
   * No Cloud API: pending WhatsApp moves to the owner's queue, each with its wa.me link, and an
   * e-mail copy goes to whoever has an address. One transaction per batch, so a copy is never
   * queued twice nor forgotten.
   */
  private async queueForOwner(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const moved = await tx.execute(sql`
        UPDATE outbox SET status = 'owner', note = ${OWNER_NOTE}, updated_at = now()
        WHERE id IN (
          SELECT id FROM outbox WHERE channel = 'whatsapp' AND status = 'pending' AND kind <> ${VERIFICATION_KIND}
          ORDER BY created_at LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED
        )
        RETURNING id`);
      const ids = rowsOf<{ id: string }>(moved).map((r) => r.id);
      if (ids.length === 0) return 0;
      // The batch's rows in one read (typed by drizzle, unlike the UPDATE's raw RETURNING).
      const rows = await tx.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(outbox.created_at);
      for (const row of rows) {
        const copy = await this.emailCopy(tx, row);
        await tx
          .update(outbox)
          .set({
            // Rows queued before links were kept get theirs now.
            wa_link: row.wa_link ?? (row.secret_enc ? null : buildWhatsAppLink(row.recipient, row.body)),
            note: copy ? `${OWNER_NOTE} ${copy}` : OWNER_NOTE,
          })
          .where(eq(outbox.id, row.id));
      }
      return ids.length;
    });
  }

  /**
   * No Cloud API: a one-time code still pending on WhatsApp (queued before it went away) cannot
   * arrive, and the owner's queue would only let it expire: it fails, and the person asks again.
   */
  private async failUnsendableCodes(): Promise<number> {
    const failed = await this.db
      .update(outbox)
      .set({ status: "failed", last_error: CODE_UNSENDABLE, updated_at: sql`now()` })
      .where(and(eq(outbox.channel, "whatsapp"), eq(outbox.status, "pending"), eq(outbox.kind, VERIFICATION_KIND)))
      .returning({ id: outbox.id });
    return failed.length;
  }

  /**
   * Queue the e-mail copy of a WhatsApp message when its person (client or lead) has an
   * address and the message is recent; returns the note to add, or null when there is none.
   * A copy the sender already queued (the same kind, person and transaction) counts: nobody
   * gets it twice.
   */
  private async emailCopy(tx: Tx, row: Row): Promise<string | null> {
    // A one-time code proves the contact it was sent to: a copy elsewhere would prove nothing.
    if (row.kind === VERIFICATION_KIND) return null;
    if (Date.now() - row.created_at.getTime() > EMAIL_COPY_MAX_AGE_HOURS * 3_600_000) return null;
    const email = (await this.person(tx, row)).email.trim().toLowerCase();
    if (!email.includes("@")) return null;
    const samePerson = row.client_id ? eq(outbox.client_id, row.client_id) : row.lead_id ? eq(outbox.lead_id, row.lead_id) : null;
    if (!samePerson) return null;
    const [sibling] = await tx
      .select({ id: outbox.id })
      .from(outbox)
      // compared in SQL: a JS Date would drop the timestamp's microseconds
      .where(
        and(
          eq(outbox.channel, "email"),
          eq(outbox.kind, row.kind),
          sql`${outbox.created_at} = (select o.created_at from outbox o where o.id = ${row.id})`,
          samePerson,
        ),
      );
    if (sibling) return `The same message went by e-mail to ${email}.`;
    const company = await this.companyName(tx);
    await tx
      .insert(outbox)
      .values({
        channel: "email",
        recipient: email,
        subject: row.subject || `${company}: ${emailSubject(row.kind)}`,
        body: row.body,
        kind: row.kind,
        client_id: row.client_id,
        lead_id: row.lead_id,
        dedupe_key: `${row.dedupe_key ?? `outbox:${row.id}`}:email-copy`,
        secret_enc: row.secret_enc,
        template_vars: row.template_vars,
        note: "A copy of a WhatsApp message.",
      })
      .onConflictDoNothing({ target: outbox.dedupe_key });
    this.copies++;
    return `An e-mail copy was queued to ${email}.`;
  }
}

const permanent = (error: unknown): never => {
  throw new PermanentFailure(error instanceof Error ? error.message : String(error));
};

function emailSubject(kind: string): string {
  const words: Record<string, string> = {
    welcome: "welcome to your client portal",
    receipt: "your payment receipt",
    "password-reset": "reset your password",
    "password-changed": "your password was changed",
    instructions: "how to install your app",
    "renewal-link": "renew your subscription",
    "content-request-reply": "about your request",
    "order-confirmation": "we received your order",
    "interest-confirmation": "we received your enquiry",
    "eft-details": "how to pay by EFT",
  };
  return words[kind] ?? (kind.startsWith("reminder") ? "your subscription" : "a message for you");
}
