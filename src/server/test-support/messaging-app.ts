// A test app whose messages reach our fakes on loopback ports: the SMTP sink (smtp-sink.ts, every
// mail kept) and, when asked for, the fake WhatsApp Cloud API (adapters/fake-whatsapp-cloud.ts).
// One setup for the API tests that read what a customer received: it starts both, points the
// app's SMTP_URL and WHATSAPP_* at them, and its close() stops the app, then both fakes.
import { type FakeWhatsAppCloud, startFakeWhatsAppCloud } from "@/server/adapters/fake-whatsapp-cloud";
import type { BuildOptions } from "@/server/app";
import type { Config } from "@/server/config";
import { createTestApp, type TestApp } from "@/server/testing";
import { type ReceivedMail, startSmtpSink } from "./smtp-sink";

export interface MessagingTestApp extends TestApp {
  /** every mail the app sent, oldest first (the sink's own list, so it grows as mails arrive) */
  mails: ReceivedMail[];
  /** the fake Cloud API, when asked for */
  whatsapp: FakeWhatsAppCloud | null;
}

export interface MessagingOptions {
  /** the Cloud API's token and phone number id: the fake is started and the app sends through it */
  whatsapp?: { token: string; phoneNumberId: string };
  /** the rest of the app's configuration */
  config?: Partial<Config>;
  build?: BuildOptions;
}

export async function createMessagingTestApp(
  options: MessagingOptions & { whatsapp: { token: string; phoneNumberId: string } },
): Promise<MessagingTestApp & { whatsapp: FakeWhatsAppCloud }>;
export async function createMessagingTestApp(options?: MessagingOptions): Promise<MessagingTestApp>;
export async function createMessagingTestApp(options: MessagingOptions = {}): Promise<MessagingTestApp> {
  const sink = await startSmtpSink();
  const whatsapp = options.whatsapp ? await startFakeWhatsAppCloud(options.whatsapp) : null;
  const stopFakes = async () => {
    await whatsapp?.close();
    await sink.close();
  };
  try {
    const t = await createTestApp(
      {
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        ...(whatsapp && options.whatsapp
          ? {
              WHATSAPP_TOKEN: options.whatsapp.token,
              WHATSAPP_PHONE_NUMBER_ID: options.whatsapp.phoneNumberId,
              WHATSAPP_API_URL: whatsapp.url,
            }
          : {}),
        ...options.config,
      },
      options.build,
    );
    return {
      ...t,
      mails: sink.mails,
      whatsapp,
      async close() {
        await t.close();
        await stopFakes();
      },
    };
  } catch (error) {
    await stopFakes();
    throw error;
  }
}
