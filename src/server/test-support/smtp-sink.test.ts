// The shared SMTP sink: a message with an attachment, as nodemailer writes it, is kept with its
// subject, its text and the attachment's name, and its HTTP read-out answers it by recipient.
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpSink, startSmtpSink } from "./smtp-sink";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ httpPort: 0 });
});
afterAll(async () => {
  await sink?.close();
});

describe("the SMTP sink", () => {
  // nodemailer lower-cases the domain: the read-out matches the address whatever its case.
  it("keeps a multipart mail's subject, text and attachment, and answers it over HTTP by recipient", async () => {
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: sink.port, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: "shop@example.test",
      to: "Naledi@Example.test",
      subject: "StreamDesk: refund of R250 (credit note CN-000001) — thank you",
      text: "Hi Naledi,\n\nWe've refunded R250 of your payment.\n",
      attachments: [{ filename: "CN-000001.pdf", content: Buffer.from("%PDF-1.4\n") }],
    });
    await transport.sendMail({ from: "shop@example.test", to: "someone@example.test", subject: "Other", text: "Other" });
    expect(sink.mails).toHaveLength(2);
    expect(sink.mails[0]).toMatchObject({
      to: ["Naledi@example.test"],
      subject: "StreamDesk: refund of R250 (credit note CN-000001) — thank you",
      text: "Hi Naledi,\n\nWe've refunded R250 of your payment.",
      attachments: ["CN-000001.pdf"],
    });

    const res = await fetch(`http://127.0.0.1:${sink.httpPort}/mails?to=naledi@example.test`);
    const { data } = (await res.json()) as { data: { subject: string; attachments: string[] }[] };
    expect(data.map((m) => m.subject)).toEqual(["StreamDesk: refund of R250 (credit note CN-000001) — thank you"]);
    expect((await fetch(`http://127.0.0.1:${sink.httpPort}/mails`, { method: "DELETE" })).status).toBe(204);
    expect(sink.mails).toHaveLength(0);
  });
});
