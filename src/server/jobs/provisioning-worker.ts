// Works the provisioning jobs (lib/provisioning.ts queues them): claims a due job with FOR
// UPDATE SKIP LOCKED — one at a time per client, in order, so two processes never send the
// same line two calls at once — calls the panel, and records the answer. A line created is
// written onto the client and its credentials are queued to the subscriber at once. A panel
// that cannot be reached is retried with backoff; a refusal (no credits, unknown package) is
// 'failed' with the panel's answer for the owner, who retries from the dashboard. In manual
// mode the job waits as a task worded for the owner.
// A create sends a login derived from the job's key (lib/provisioning.ts, lineCredentials) and
// is always preceded by a lookup of that login (findLine): after a create whose answer was lost
// (a timeout, a broken connection, a 5xx, a process that died mid-call) the next attempt finds
// the line the panel made and adopts it, or makes it when it is not there. One line, no owner.
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  type LineType,
  MAYBE_DONE_STATUSES,
  ManualStep,
  PANEL_STATUS_MESSAGES,
  type PanelAdapter,
  PanelError,
  type PanelLine,
} from "@/server/adapters/panel/panel";
import { rowsOf } from "@/server/db/rows";
import { clients, lineMacChanges, provisioningJobs } from "@/server/db/schema";
import { appForDevice } from "@/server/lib/accounts";
import { loadBusiness } from "@/server/lib/business";
import { loadRules, queueRestoredWhenEnabled } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueueAll } from "@/server/lib/outbox";
import { alertOwner, noteCreditBalance } from "@/server/lib/owner-alerts";
import { PassLoop } from "@/server/lib/pass-loop";
import { lineCredentials } from "@/server/lib/provisioning";
import { credentialsMessages, deviceLineMessages, magPortalUrl } from "@/server/modules/panel/messages";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import { formatDate } from "@/shared/dates";
import { needsMac } from "@/shared/device-lines";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";
import { type CostingCall, ledgeredCall } from "./credit-ledger";
import { type Client, type Job, JobFailure } from "./provisioning-job";
import { enqueueMacTaken, failureNotice } from "./provisioning-notices";
import { bouquetsFor, mappedPackage, trialPackage } from "./provisioning-packages";

export const PROVISIONING_MAX_ATTEMPTS = 8;
/** a 'running' job older than this belonged to a process that died mid-call */
const STALE_RUNNING_MS = 10 * 60_000;

const INTERRUPTED_MESSAGE = "The server stopped while this was being sent to the panel. Check the panel, then retry or mark it done.";

/** 30 s, 1 min, 2 min, ... capped at 1 hour */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export class ProvisioningWorker {
  private readonly passes: PassLoop;

  constructor(
    private readonly app: FastifyInstance,
    readonly panel: PanelAdapter,
    intervalMs = 15_000,
  ) {
    // passes only while started
    const pass = () => this.workAll().catch((error) => this.app.log.warn({ err: error }, "provisioning pass failed"));
    this.passes = new PassLoop(pass, intervalMs, true);
  }

  start(): void {
    this.passes.start();
  }

  get started(): boolean {
    return this.passes.started;
  }

  async stop(): Promise<void> {
    await this.passes.stop();
  }

  /** Ask for a pass soon (after a change queued work); coalesces while one is running. Only once started. */
  nudge(): void {
    this.passes.request();
  }

  /**
   * Work until nothing due is left; returns how many jobs were attempted. A pass of the worker's
   * own (started, nudged) that holds a job meanwhile is waited for, so every due job is done when
   * this returns.
   */
  async drain(): Promise<number> {
    const total = await this.workAll();
    await this.passes.settled();
    return total;
  }

  /** One pass: claims and works due jobs until none is left (the loop's pass; drain's own). */
  private async workAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return total;
      total++;
      await this.work(job);
    }
  }

  /** The oldest due job of a client with nothing earlier still waiting or running. */
  async claim(): Promise<Job | null> {
    // A job left 'running' by a process that died may or may not have reached the panel. A create
    // of a client with no line yet goes again (it looks its login up first); anything else is
    // the owner's to check, rather than a blind resend charging the line twice.
    await this.app.db.execute(sql`
      UPDATE provisioning_jobs j SET status = 'pending', error_status = 'INTERRUPTED',
        last_error = 'The server stopped while this was being sent to the panel; it is looked up on the panel and sent again only if it is not there.',
        next_attempt_at = now(), updated_at = now()
      WHERE j.status = 'running' AND j.updated_at < now() - make_interval(secs => ${STALE_RUNNING_MS / 1000})
        AND j.action = 'create_line' AND j.attempts < ${PROVISIONING_MAX_ATTEMPTS}
        AND EXISTS (SELECT 1 FROM clients c WHERE c.id = j.client_id AND c.panel_line_id IS NULL)`);
    // Anything else left 'running' may or may not have reached the panel: the owner checks.
    const interrupted = await this.app.db.transaction(async (tx) => {
      const failed = await tx
        .update(provisioningJobs)
        .set({ status: "failed", error_status: "INTERRUPTED", last_error: INTERRUPTED_MESSAGE, updated_at: new Date() })
        .where(
          and(
            eq(provisioningJobs.status, "running"),
            sql`${provisioningJobs.updated_at} < now() - make_interval(secs => ${STALE_RUNNING_MS / 1000})`,
          ),
        )
        .returning();
      if (!failed.length) return 0;
      // The owner hears of each, as of any other failure.
      const publicUrl = (await loadBusiness(this.app)).publicUrl;
      let told = 0;
      for (const stale of failed) {
        const [client] = await tx.select().from(clients).where(eq(clients.id, stale.client_id));
        if (!client) continue;
        const failure = { message: INTERRUPTED_MESSAGE, status: "INTERRUPTED" };
        told += await alertOwner(this.app, tx, failureNotice(publicUrl, stale, client, failure));
      }
      return told;
    });
    if (interrupted) this.app.outbox.nudge();
    const claimed = await this.app.db.execute(sql`
      UPDATE provisioning_jobs SET status = 'running', attempts = attempts + 1, updated_at = now()
      WHERE id = (
        SELECT j.id FROM provisioning_jobs j
        WHERE j.status = 'pending' AND j.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM provisioning_jobs e
            WHERE e.client_id = j.client_id AND e.id <> j.id
              AND (e.status = 'running' OR (e.status = 'pending' AND e.created_at < j.created_at))
          )
        ORDER BY j.next_attempt_at, j.created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id`);
    const row = rowsOf<{ id: string }>(claimed)[0];
    if (!row) return null;
    const [job] = await this.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, row.id));
    return job ?? null;
  }

  async work(job: Job): Promise<void> {
    const [client] = await this.app.db.select().from(clients).where(eq(clients.id, job.client_id));
    if (!client) {
      await this.finish(job, { status: "done", note: "The client was deleted." });
      return;
    }
    try {
      const line = await this.perform(job, client);
      await this.succeed(job, client, line);
      await this.checkCredits(job);
    } catch (error) {
      if (error instanceof ManualStep) {
        await this.finish(job, { status: "task", instruction: await this.instruction(job, client) });
        return;
      }
      const failure =
        error instanceof PanelError || error instanceof JobFailure
          ? error
          : new JobFailure(error instanceof Error ? error.message : String(error), "ERROR");
      // A create whose answer was lost is safe to send again: the next attempt looks it up first.
      const maybeDone =
        error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status) && job.action === "create_line" && !client.panel_line_id;
      const retry = error instanceof PanelError && (error.retryable || maybeDone) && job.attempts < PROVISIONING_MAX_ATTEMPTS;
      this.app.log.warn({ job: job.id, action: job.action, status: failure.status }, "panel job did not succeed");
      const result = {
        status: retry ? "pending" : "failed",
        errorStatus: failure.status,
        error: failure.message,
        answer: "answer" in failure ? failure.answer : "",
        delayMs: retry ? backoffMs(job.attempts) : 0,
      };
      if (retry) {
        await this.finish(job, result);
        return;
      }
      // A failure waits for the owner: they hear of it once (per job), in the same transaction,
      // on their alert channel (lib/owner-alerts.ts).
      const business = await loadBusiness(this.app);
      const told = await this.app.db.transaction(async (tx) => {
        if (!(await this.finish(job, result, tx))) return 0;
        // The portal stops showing a MAC change as under way: it did not happen (an owner's Retry
        // that works marks it done, in succeed()).
        if (job.action === "change_mac") {
          await tx
            .update(lineMacChanges)
            .set({ status: "failed" })
            .where(and(eq(lineMacChanges.id, job.cause_key.split(":")[1] ?? ""), eq(lineMacChanges.status, "pending")));
        }
        // A box whose MAC is already on the panel: the customer is asked to check it (issue 32).
        const asked = failure.status === "STATUS_EXISTS_MAC" ? await enqueueMacTaken(tx, business, job, client) : false;
        return (await alertOwner(this.app, tx, failureNotice(business.publicUrl, job, client, failure))) + (asked ? 1 : 0);
      });
      if (told) this.app.outbox.nudge();
    }
  }

  /** After a line was made or renewed (credits spent): the balance, for the owner's low-credit alert. Best effort. */
  private async checkCredits(job: Job): Promise<void> {
    if (job.action !== "create_line" && job.action !== "extend_line") return;
    try {
      const { credits } = await this.panel.userInfo();
      await noteCreditBalance(this.app, credits, (await loadBusiness(this.app)).publicUrl);
    } catch (error) {
      this.app.log.warn({ err: error }, "panel credit balance not read after a job");
    }
  }

  /** The panel call for this job, decided against the client as it is now. */
  private async perform(job: Job, client: Client): Promise<PanelLine | null> {
    // Manual mode: every step is the owner's, whatever the mapping says.
    if (this.panel.mode === "manual") throw new ManualStep("");
    const action = job.action === "create_line" && client.panel_line_id ? "extend_line" : job.action;
    if (action === "create_line") {
      const panelPackage = job.trial
        ? await trialPackage(this.app.db, this.panel)
        : await mappedPackage(this.app.db, this.panel, job.package_id ?? client.package_id, job.package_name);
      const login = await lineCredentials(this.app.db, job.cause_key);
      // A MAG / Enigma2 box's line is keyed by its MAC (create_mag / create_enigma); our login marks it in the notes.
      const device = needsMac(client.line_type) ? { type: client.line_type as LineType, mac: client.line_mac } : null;
      if (device && !device.mac)
        throw new JobFailure("The client's box has no MAC address recorded. Add it on their page, then retry.", "NO_MAC");
      // Made already by an attempt whose answer was lost (or by another process): adopted, not made again.
      const existing = device ? await this.panel.findLine(device.mac, device.type) : await this.panel.findLine(login.username);
      if (existing && device && !(existing.notes ?? "").includes(login.username)) {
        // The MAC is on the panel, but not by this job: someone else's box, or a typo.
        const known = PANEL_STATUS_MESSAGES.STATUS_EXISTS_MAC;
        throw new JobFailure(known.message, "STATUS_EXISTS_MAC");
      }
      if (existing) {
        this.app.log.info({ job: job.id, line: existing.id }, "panel line found under the job's login: adopted");
        return existing;
      }
      // The owner's choice of the package's bouquets (a trial gets the trial package's own).
      const bouquets = job.trial ? undefined : await bouquetsFor(this.app.db, job.package_id ?? client.package_id);
      return this.charged({
        job,
        action: "create_line",
        panelPackage,
        trial: job.trial,
        call: () =>
          this.panel.createLine({
            ...(device ?? {}),
            package: panelPackage,
            trial: job.trial,
            contact: [client.full_name, client.whatsapp ? `+${normaliseWhatsAppNumber(client.whatsapp)}` : "", client.email]
              .filter(Boolean)
              .join(", "),
            bouquets,
            // The login is in the notes too: a panel that makes up its own usernames still finds it.
            notes: `StreamDesk client ${client.username} · ${login.username}`,
            ...(device ? {} : login),
          }),
      });
    }
    const lineId = client.panel_line_id;
    if (!lineId) throw new JobFailure("This client has no line on the panel yet.", "NO_LINE");
    const type = client.line_type as LineType;
    if (action === "extend_line") {
      const panelPackage = await mappedPackage(this.app.db, this.panel, job.package_id ?? client.package_id, job.package_name);
      const bouquets = await bouquetsFor(this.app.db, job.package_id ?? client.package_id);
      return this.charged({
        job,
        action: "extend_line",
        panelPackage,
        trial: false,
        call: () => this.panel.editLine({ id: lineId, package: panelPackage, type, bouquets }),
      });
    }
    if (action === "enable_line") await this.panel.enableLine(lineId, type);
    else if (action === "disable_line") await this.panel.disableLine(lineId, type);
    else if (action === "isp_clear") await this.panel.clearIspLock(lineId, type);
    else if (action === "change_mac") {
      const change = await this.macChangeOf(job);
      if (type !== "mag" && type !== "enigma2") throw new JobFailure("This client's line is not a box's line.", "NOT_A_BOX");
      await this.panel.changeMac({ id: lineId, type, mac: change.new_mac });
    }
    return null;
  }

  /** The portal's MAC change a change_mac job carries out (its cause key: mac-change:<change id>:change_mac). */
  private async macChangeOf(job: Job) {
    const [, id] = job.cause_key.split(":");
    const [change] = await this.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.id, id));
    if (!change) throw new JobFailure("The MAC change this job was for no longer exists.", "NO_CHANGE");
    return change;
  }

  /** costing calls of this process, one at a time, so each ledger row's before and after are its own */
  private costTurn: Promise<unknown> = Promise.resolve();

  /** A panel call that costs credits, on the credit ledger (./credit-ledger.ts); one at a time per process. */
  private charged<T>(cost: CostingCall<T>): Promise<T> {
    const run = () => ledgeredCall(this.app, this.panel, cost);
    const turn = this.costTurn.then(run, run);
    this.costTurn = turn.catch(() => undefined);
    return turn;
  }

  private async succeed(job: Job, client: Client, line: PanelLine | null): Promise<void> {
    const business = await loadBusiness(this.app);
    const app = line && !client.panel_line_id ? await appForDevice(this.app.db, client.device) : null;
    // the owner's stream URL setting, else PANEL_STREAM_URL, else the panel's host (modules/panel/settings.ts)
    const streamUrl = await currentStreamUrl(this.app);
    const now = new Date();
    // Read before the transaction (PGlite has one connection).
    const change = job.action === "change_mac" ? await this.macChangeOf(job) : null;
    // a reactivated client's "Line restored" waited for this call (lib/lifecycle.ts, queueRestoredWhenEnabled)
    const noticeContext =
      job.action === "enable_line" ? { business, templates: await loadTemplates(this.app.db), rules: await loadRules(this.app) } : null;
    const told = await this.app.db.transaction(async (tx) => {
      const changes: Partial<Client> = { updated_at: now, line_sync_issue: "" };
      if (line && !client.panel_line_id) {
        // A new line: its login is the subscriber's, and goes to them at once.
        const device = needsMac(client.line_type) ? { type: client.line_type as "mag" | "enigma2", mac: client.line_mac } : null;
        Object.assign(changes, {
          panel_line_id: line.id,
          line_username: line.username,
          line_password: line.password,
          line_expires_at: line.expires_at,
          line_enabled: line.enabled,
          line_is_test: this.panel.mode === "sandbox",
          // A MAG box is pointed at the panel's portal; everything else signs in at the stream URL.
          line_portal_url: device?.type === "mag" ? magPortalUrl(streamUrl) : streamUrl,
        });
        const [updated] = await tx.update(clients).set(changes).where(eq(clients.id, client.id)).returning();
        const facts = { client: updated, line, streamUrl, test: this.panel.mode === "sandbox", app, jobId: job.id };
        await enqueueAll(
          tx,
          device ? deviceLineMessages(business, { ...facts, device }) : credentialsMessages(business, facts, await loadTemplates(tx)),
        );
      } else {
        if (line?.expires_at) changes.line_expires_at = line.expires_at;
        if (job.action === "enable_line") changes.line_enabled = true;
        if (job.action === "disable_line") changes.line_enabled = false;
        if (change) {
          // The box's new MAC is the client's once the panel has it.
          changes.line_mac = change.new_mac;
          await tx.update(lineMacChanges).set({ status: "done", done_at: now }).where(eq(lineMacChanges.id, change.id));
        }
        await tx.update(clients).set(changes).where(eq(clients.id, client.id));
      }
      await tx
        .update(provisioningJobs)
        .set({ status: "done", done_at: now, error_status: "", last_error: "", panel_answer: "", updated_at: now })
        .where(eq(provisioningJobs.id, job.id));
      return noticeContext ? await queueRestoredWhenEnabled(tx, job, noticeContext) : false;
    });
    if ((line && !client.panel_line_id) || told) this.app.outbox.nudge();
  }

  private async finish(
    job: Job,
    result: {
      status: string;
      errorStatus?: string;
      error?: string;
      answer?: string;
      delayMs?: number;
      instruction?: string;
      note?: string;
    },
    executor: Pick<typeof this.app.db, "update"> = this.app.db,
  ): Promise<boolean> {
    const updated = await executor
      .update(provisioningJobs)
      .set({
        status: result.status,
        error_status: result.errorStatus ?? "",
        last_error: (result.error ?? result.note ?? "").slice(0, 1000),
        panel_answer: (result.answer ?? "").slice(0, 2000),
        instruction: result.instruction ?? job.instruction,
        next_attempt_at: new Date(Date.now() + (result.delayMs ?? 0)),
        done_at: result.status === "done" ? new Date() : null,
        updated_at: new Date(),
      })
      .where(and(eq(provisioningJobs.id, job.id), eq(provisioningJobs.status, "running")))
      .returning({ id: provisioningJobs.id });
    return updated.length > 0;
  }

  /** The owner's task in manual mode, in plain words. */
  private async instruction(job: Job, client: Client): Promise<string> {
    const who = `${client.full_name}${client.whatsapp ? ` (WhatsApp +${normaliseWhatsAppNumber(client.whatsapp)})` : ""}`;
    const box = client.line_type === "mag" ? "MAG " : client.line_type === "enigma2" ? "Enigma2 " : "";
    const what = `${job.trial ? "free-trial" : job.package_name || client.package_name || "paid"} ${box}line${box ? ` (MAC ${client.line_mac})` : ""}`;
    const until = client.subscription_end ? ` It should run until ${formatDate(client.subscription_end)}.` : "";
    switch (job.action === "create_line" && client.panel_line_id ? "extend_line" : job.action) {
      case "create_line":
        return `Create a ${what} for ${who} on your panel, then paste its username and password here.${until}`;
      case "extend_line":
        return `Extend ${client.line_username || "the"} line of ${who} on your panel by the ${job.package_name || "paid"} package, then mark this done.${until}`;
      case "enable_line":
        // A reactivation's "Line restored" waits for this (lib/lifecycle.ts, queueRestoredWhenEnabled): the owner knows it.
        return `Switch the line ${client.line_username} of ${who} back on in your panel, then mark this done.${
          job.cause_key.startsWith("reactivate:")
            ? ` ${client.full_name} is told their line is back on when you mark it done, not before.`
            : ""
        }`;
      case "isp_clear":
        return `Reset the ISP lock of the line ${client.line_username || client.line_mac} of ${who} in your panel, then mark this done.`;
      case "change_mac":
        return `Change the MAC address of ${who}'s box from ${client.line_mac} to ${(await this.macChangeOf(job)).new_mac} in your panel, then mark this done.`;
      default:
        return `Switch off the line ${client.line_username} of ${who} in your panel, then mark this done.`;
    }
  }
}
