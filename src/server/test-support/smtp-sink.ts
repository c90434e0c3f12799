// An SMTP server on 127.0.0.1 that keeps every message it accepts: the "customer's mailbox" of
// the API tests (orders/mail.test.ts; messaging-app.ts starts it with a test app) and of the browser suite (tests/e2e/start-server.mjs starts
// one and points the server's SMTP_URL at it). With `httpPort`, it also answers what arrived on a
// loopback HTTP port, for a spec in another process: GET /mails (?to=<address>) → {data: mails},
// DELETE /mails empties the box.
//
// No path aliases and no other module of ours: start-server.mjs loads this file through tsx.
import { createServer, type Server } from "node:http";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** the text/plain part, decoded */
  text: string;
  /** the attachments' file names, e.g. CN-000001.pdf */
  attachments: string[];
  /** when it arrived (ISO) */
  received_at: string;
  /** the message as it came over the wire (headers and MIME parts, still encoded); not in the HTTP read-out */
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** the HTTP port of GET /mails, when asked for */
  httpPort: number | null;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** Starts the sink on `port` (0: any free one); with `httpPort`, its HTTP read-out as well. */
export async function startSmtpSink(options: { port?: number; httpPort?: number } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const message = Buffer.concat(chunks);
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMessage(message.toString("latin1")),
          received_at: new Date().toISOString(),
          raw: message.toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);

  let http: Server | null = null;
  if (options.httpPort !== undefined) {
    http = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mails") {
        response.writeHead(404).end();
        return;
      }
      if (request.method === "DELETE") {
        mails.length = 0;
        response.writeHead(204).end();
        return;
      }
      const to = url.searchParams.get("to")?.toLowerCase();
      const found = to ? mails.filter((m) => m.to.some((address) => address.toLowerCase() === to)) : mails;
      const data = found.map(({ raw: _raw, ...mail }) => mail);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
    });
    const listening = http;
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(options.httpPort, "127.0.0.1", () => resolve());
    });
  }
  const httpAddress = http?.address();
  return {
    port,
    httpPort: typeof httpAddress === "object" && httpAddress ? httpAddress.port : null,
    mails,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (http) {
        const open = http;
        await new Promise<void>((resolve) => open.close(() => resolve()));
      }
    },
  };
}

/** A MIME entity's headers (folded lines joined) and body. */
function splitEntity(raw: string): { header: (name: string) => string; body: string } {
  const at = raw.indexOf("\r\n\r\n");
  const headers = (at < 0 ? raw : raw.slice(0, at)).replace(/\r\n[ \t]+/g, " ");
  const body = at < 0 ? "" : raw.slice(at + 4);
  return { header: (name) => new RegExp(`^${name}: (.*)$`, "im").exec(headers)?.[1] ?? "", body };
}

/** Subject, the decoded text/plain part and the attachments' names of a message as nodemailer writes it. */
export function parseMessage(raw: string): { subject: string; text: string; attachments: string[] } {
  const top = splitEntity(raw);
  const attachments: string[] = [];
  let text: string | null = null;
  const walk = (entity: ReturnType<typeof splitEntity>) => {
    const type = entity.header("Content-Type");
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      const parts = entity.body.split(`--${boundary}`).slice(1);
      for (const part of parts) {
        if (part.startsWith("--")) break;
        walk(splitEntity(part.replace(/^\r\n/, "")));
      }
      return;
    }
    const filename = /filename="?([^";]+)"?/i.exec(`${entity.header("Content-Disposition")}; ${type}`)?.[1];
    if (filename) attachments.push(filename);
    else if (text === null && (type === "" || /^text\/plain/i.test(type)))
      text = decodeBody(entity.body, entity.header("Content-Transfer-Encoding"));
  };
  walk(top);
  return { subject: decodeHeader(top.header("Subject")), text: (text ?? "").replace(/\r\n/g, "\n").trim(), attachments };
}

function decodeBody(body: string, encoding: string): string {
  const how = encoding.trim().toLowerCase();
  if (how === "quoted-printable") return decodeQuotedPrintable(body);
  if (how === "base64") return Buffer.from(body, "base64").toString("utf8");
  return Buffer.from(body, "latin1").toString("utf8");
}

/** An RFC 2047 encoded-word subject (=?UTF-8?Q?...?= or ?B?), as nodemailer writes non-ASCII ones. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, how: string, data: string) =>
      how.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
