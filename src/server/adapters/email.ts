// E-mail transport: SMTP through nodemailer when SMTP_URL is set. Without it there is no
// transport and e-mail waits in the outbox, readable in the admin.
import nodemailer from "nodemailer";

export interface EmailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  attachments?: EmailAttachment[];
}

export interface EmailTransport {
  readonly name: string;
  send(message: OutgoingEmail): Promise<void>;
  verify(): Promise<void>;
  close(): void;
}

export function createSmtpTransport(smtpUrl: string, from: string): EmailTransport {
  // Options in the first argument: a second argument would only set message defaults.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as never);
  return {
    name: "smtp",
    async send(message) {
      await transporter.sendMail({ from, to: message.to, subject: message.subject, text: message.text, attachments: message.attachments });
    },
    async verify() {
      await transporter.verify();
    },
    close() {
      transporter.close();
    },
  };
}
