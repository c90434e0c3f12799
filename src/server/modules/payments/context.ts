// What every payments job shares, built once per service (createPaymentsContext): the app, the
// shop's public URL, the card provider and the hosted providers the owner turned on, and the
// service's options; with the types the jobs pass to each other (the order, the payer, the row).
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { HostedProvider, HostedProviderName, NotificationSourceCheck } from "@/server/adapters/payments/provider";
import { hostedProviderDefinitions } from "@/server/adapters/payments/registry";
import { type ActiveProvider, selectHostedProviders, selectPaymentProvider } from "@/server/adapters/payments/select-provider";
import type { Db } from "@/server/db/client";
import { capturedPayments } from "@/server/db/schema";
import type { ClientRow } from "@/server/lib/accounts";
import { type AppError, badRequest } from "@/server/lib/errors";
import type { PaymentMethods } from "@/shared/api";
import { cardModeFor } from "./methods";

export type Payment = typeof capturedPayments.$inferSelect;

export interface PaymentsServiceOptions {
  /** the six reference characters of an EFT reference (tests force collisions) */
  eftCode?: () => string;
}

export interface PaymentsContext {
  app: FastifyInstance;
  db: Db;
  /** the shop's address, no trailing slash: where providers send the buyer back and notify us */
  publicUrl: string;
  /** the card provider: the first configured (registry.ts), else the test checkout */
  active: ActiveProvider;
  cardMode: PaymentMethods["card"];
  /** the hosted providers the owner turned on (docs/payment-providers.md) */
  hosted: Map<HostedProviderName, HostedProvider>;
  /** where a provider's notifications may come from, for each provider that documents it (its definition's notificationSource) */
  notificationSources: Map<HostedProviderName, NotificationSourceCheck>;
  options: PaymentsServiceOptions;
  /** when each pending payment was last re-checked with its provider (status.ts throttles on it) */
  lastReconciled: Map<string, number>;
}

export function createPaymentsContext(app: FastifyInstance, options: PaymentsServiceOptions = {}): PaymentsContext {
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, "");
  return {
    app,
    db: app.db,
    publicUrl,
    active: selectPaymentProvider(app.config, app.db, publicUrl),
    cardMode: cardModeFor(app.config),
    hosted: selectHostedProviders(app.config),
    notificationSources: new Map(
      hostedProviderDefinitions().flatMap((d) =>
        d.notificationSource ? [[d.name, d.notificationSource(app.config, app.resolveHost)] as const] : [],
      ),
    ),
    options,
    lastReconciled: new Map(),
  };
}

export type OrderInput = {
  packageId: string;
  /** card (default) or a hosted provider's id */
  method?: string;
  name?: string;
  whatsapp?: string;
  email?: string;
  clientId?: string;
  immediateStartConsent?: boolean;
  /** the payer chose "Renew automatically with this card" (issue 44) */
  autoRenew?: boolean;
  coupon?: string;
  verificationCode?: string;
  company?: string;
  address?: string;
  vatNumber?: string;
  /** the device the line is for (issue 32): an app, or a MAG / Enigma2 box with its MAC */
  lineType?: string;
  mac?: string;
};

/** Who pays: the signed-in client, or a person by name and WhatsApp number. */
export interface PayerSession {
  /** the signed-in client's id, when there is a client session */
  clientId: string | null;
  ip?: string;
  /** the payer proved with a one-time code that they are this client: the route signs them in */
  onProven?: (clientId: string) => Promise<void>;
}

/** The person a payment is for (payer.ts): a client, or a lead. */
export interface Payer {
  client: ClientRow | null;
  leadId: string | null;
  email: string;
  name: string;
}

/** First message of a failed safeParse, with every field's message. */
export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    if (!fields[key]) fields[key] = issue.message;
  }
  return badRequest(error.issues[0]?.message ?? "Please check the information you entered.", fields);
}

export async function findPayment(ctx: PaymentsContext, ref: string): Promise<Payment | null> {
  const [payment] = await ctx.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)).limit(1);
  return payment ?? null;
}
