import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { downloads, outbox } from "@/server/db/schema";
import { seedDownloads } from "@/server/db/seed-content";
import { loadBusiness, signOff } from "@/server/lib/business";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, eventually, onPostgres, type TestApp } from "@/server/testing";
import { RECIPIENT_LIMIT_MESSAGE, recipientLimit } from "./routes";
import { numberedSteps } from "./service";

interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parseMail(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Just enough MIME for a single-part text mail: the Subject and the decoded body. */
function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    text = Buffer.from(bytes, "latin1").toString("utf8");
  } else if (encoding === "base64") {
    text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { subject: header("Subject"), text: text.replace(/\r\n/g, "\n") };
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ipCounter = 0;
/** Each test speaks from its own address, so the per-IP limit of one test never trips another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const post = (url: string, payload?: unknown, ip = freshIp()) =>
  t.app.inject({ method: "POST", url, payload: payload as Record<string, unknown>, remoteAddress: ip });

let smarters: typeof downloads.$inferSelect;
let noUrl: string;
let hidden: string;
let noGuide: string;
let unsafeUrl: string;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  smtp = await startSmtp();
  // Default public-write limit (20/min): the per-recipient limit is then max(3, 4) = 4.
  t = await createTestApp({ SMTP_URL: smtp.url }, { seed: true });
  const [row] = await t.app.db.select().from(downloads).where(eq(downloads.name, seedDownloads[0].name));
  smarters = row;
  const made = await t.app.db
    .insert(downloads)
    .values([
      { name: "No Link Player", download_url: null, installation_guide: "Open it." },
      { name: "Hidden Player", download_url: "https://example.com/hidden.apk", installation_guide: "Open it.", is_active: false },
      { name: "Guideless Player", download_url: "https://example.com/guideless.apk", installation_guide: "   " },
      { name: "Sneaky Player", download_url: "javascript:alert(1)", installation_guide: "Open it." },
    ])
    .returning({ id: downloads.id });
  [noUrl, hidden, noGuide, unsafeUrl] = made.map((r) => r.id);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.app.db.delete(outbox);
  smtp.mails.length = 0;
});

const countOf = async (id: string) =>
  (await t.app.db.select({ n: downloads.download_count }).from(downloads).where(eq(downloads.id, id)))[0]?.n;

describe("POST /api/downloads/:id/download", () => {
  it("counts the download and answers the url", async () => {
    const before = await countOf(smarters.id);
    const res = await post(`/api/downloads/${smarters.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: smarters.download_url });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(await countOf(smarters.id)).toBe((before ?? 0) + 1);
  });

  it("counts every one of 10 clicks sent together (on PGlite's one connection they run one after another)", async () => {
    const before = (await countOf(smarters.id)) ?? 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`/api/downloads/${smarters.id}/download`)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(await countOf(smarters.id)).toBe(before + 10);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): clicks on two processes at the same moment are each counted (atomic increment)",
    async () => {
      const other = await secondProcess(t);
      try {
        const before = (await countOf(smarters.id)) ?? 0;
        const click = (app: TestApp["app"]) =>
          app.inject({ method: "POST", url: `/api/downloads/${smarters.id}/download`, remoteAddress: freshIp() });
        // three clicks a process, each waiting behind the lock on the counter's table, then let go together
        const sides = await startTogether(t.database.url as string, "LOCK TABLE downloads IN EXCLUSIVE MODE", 6, () =>
          Promise.all([t.app, other.app].map((app) => Promise.all([click(app), click(app), click(app)]))),
        );
        for (const side of sides) {
          expect(side.map((r) => r.statusCode)).toEqual([200, 200, 200]);
          for (const r of side) expect(r.json()).toEqual({ url: smarters.download_url });
        }
        expect(await countOf(smarters.id)).toBe(before + 6);
      } finally {
        await other.close();
      }
    },
  );

  it("answers 'Download URL not available' without counting when the app has no link", async () => {
    const res = await post(`/api/downloads/${noUrl}/download`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: "no_download_url", message: "Download URL not available" } });
    expect(await countOf(noUrl)).toBe(0);
  });

  it("never hands the browser a link that is not a web address", async () => {
    const res = await post(`/api/downloads/${unsafeUrl}/download`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("no_download_url");
    expect(await countOf(unsafeUrl)).toBe(0);
  });

  it("answers 404 in the error shape for an inactive or unknown app, and 400 for a bad id", async () => {
    for (const id of [hidden, UNKNOWN]) {
      const res = await post(`/api/downloads/${id}/download`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: "not_found", message: "App not found" } });
    }
    expect(await countOf(hidden)).toBe(0);
    const bad = await post("/api/downloads/not-a-uuid/download");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe("validation");
  });
});

describe("POST /api/downloads/:id/instructions", () => {
  const url = () => `/api/downloads/${smarters.id}/instructions`;

  it.each([
    [{ type: "email", contact: "" }, "Please enter contact information"],
    [{ type: "whatsapp", contact: "   " }, "Please enter contact information"],
    [{ type: "email" }, "Please enter contact information"],
    [{ type: "whatsapp", contact: "082 123 45" }, "Please enter a valid phone number"],
    [{ type: "email", contact: "someone@nowhere" }, "Please enter a valid email address"],
  ])("refuses %o with the spec's message", async (body, message) => {
    const res = await post(url(), body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: "validation", message, fields: { contact: message } } });
    expect(await t.app.db.select().from(outbox)).toHaveLength(0);
  });

  it("refuses an unknown channel", async () => {
    const res = await post(url(), { type: "sms", contact: "0821234567" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.type).toBe("Choose WhatsApp or email");
  });

  it("answers 'Installation guide not available for this app' when there is no guide", async () => {
    const res = await post(`/api/downloads/${noGuide}/instructions`, { type: "email", contact: "thandi@example.co.za" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: "no_instructions", message: "Installation guide not available for this app" } });
    expect(await t.app.db.select().from(outbox)).toHaveLength(0);
  });

  it("answers 404 for an inactive app", async () => {
    const res = await post(`/api/downloads/${hidden}/instructions`, { type: "email", contact: "thandi@example.co.za" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("not_found");
  });

  it("e-mails the guide from the database through SMTP, ignoring text sent with the request", async () => {
    const res = await post(url(), {
      type: "email",
      contact: "  Thandi@Example.co.za ",
      appName: "Totally Different App",
      installationGuide: "BOGUS-GUIDE visit http://phish.example",
      version: "BOGUS-VERSION",
      fileSize: "BOGUS-SIZE",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    // the route nudged the worker already; drain() covers the case it has not started yet
    await t.app.outbox.drain();
    await eventually(() => expect(smtp.mails).toHaveLength(1));
    const [mail] = smtp.mails;
    expect(mail.to).toEqual(["thandi@example.co.za"]);
    expect(mail.subject).toBe("IPTV Smarters Pro installation guide");
    expect(mail.text).not.toContain("BOGUS");
    expect(mail.text).not.toContain("phish");
    expect(mail.text).not.toContain("Totally Different App");
    // version, size, link and the numbered guide, all from the row
    expect(mail.text).toContain("version 5.0");
    expect(mail.text).toContain("About 40 MB");
    expect(mail.text).toContain(`Download: ${smarters.download_url}`);
    for (const step of (smarters.installation_guide ?? "").split("\n")) expect(mail.text).toContain(step);
    expect(mail.text).toMatch(/^1\. /m);
    // it names the business and ends with a way to reach a person
    expect(mail.text).toContain("StreamDesk");
    expect(mail.text.trimEnd().endsWith(signOff(await loadBusiness(t.app)))).toBe(true);
    expect(mail.text).toContain("Need a person?");
    await eventually(async () => {
      const [row] = await t.app.db.select().from(outbox);
      expect(row).toMatchObject({ status: "sent", kind: "instructions", channel: "email" });
    });
  });

  it("queues WhatsApp instructions to the normalised number (for the owner to send without a WhatsApp transport)", async () => {
    const res = await post(url(), { type: "whatsapp", contact: "082 123 4567", installationGuide: "BOGUS" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    await t.app.outbox.drain();
    const rows = await t.app.db.select().from(outbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "whatsapp", recipient: "27821234567", status: "owner", attempts: 0, kind: "instructions" });
    expect(rows[0].wa_link).toMatch(/^https:\/\/wa\.me\/27821234567\?text=/);
    expect(rows[0].body).toContain("IPTV Smarters Pro");
    expect(rows[0].body).toContain(smarters.installation_guide?.split("\n")[0]);
    expect(rows[0].body).not.toContain("BOGUS");
    expect(smtp.mails).toHaveLength(0);
  });

  it("limits messages per recipient, whatever the caller's address or the number's spelling", async () => {
    // Fixed one-minute windows: start well inside one so the test cannot straddle two.
    const seconds = new Date().getSeconds();
    if (seconds >= 55) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const limit = recipientLimit(t.config.PUBLIC_WRITE_LIMIT_PER_MIN);
    expect(limit).toBe(4);
    const spellings = ["083 555 0101", "+27 83 555 0101", "27835550101", "(083) 555-0101"];
    for (const contact of spellings) {
      const ok = await post(url(), { type: "whatsapp", contact });
      expect(ok.statusCode).toBe(200);
    }
    const limited = await post(url(), { type: "whatsapp", contact: "0835550101" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: "rate_limited", message: RECIPIENT_LIMIT_MESSAGE } });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    const rows = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, "27835550101"), eq(outbox.kind, "instructions")));
    expect(rows).toHaveLength(limit);
    // someone else is still served
    expect((await post(url(), { type: "whatsapp", contact: "083 555 0202" })).statusCode).toBe(200);
  });

  it("limits requests per connection", async () => {
    const seconds = new Date().getSeconds();
    if (seconds >= 55) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const ip = freshIp();
    const limit = t.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    for (let i = 0; i < limit; i++) {
      // invalid bodies still count: the limit also stops probing
      expect((await post(url(), { type: "email", contact: "" }, ip)).statusCode).toBe(400);
    }
    const limited = await post(url(), { type: "email", contact: "x@example.co.za" }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe("rate_limited");
  });
});

describe("numberedSteps", () => {
  it("numbers an unnumbered guide and keeps a numbered one as written", () => {
    expect(numberedSteps("Open the store\n\n  Install it \nSign in")).toBe("1. Open the store\n2. Install it\n3. Sign in");
    expect(numberedSteps("1. Open\n- on Samsung: Apps\n2. Install")).toBe("1. Open\n- on Samsung: Apps\n2. Install");
  });
});
