// Which ways to pay are on: the card mode (the card provider, the test checkout, or off), the hosted providers,
// EFT, and how the login will go.
import type { FastifyInstance } from "fastify";
import { cardProviderFor } from "@/server/adapters/payments/registry";
import { selectHostedProviders } from "@/server/adapters/payments/select-provider";
import { loadBusiness } from "@/server/lib/business";
import { shopLoginChannel } from "@/server/lib/login-channel";
import type { PaymentMethods } from "@/shared/api";
import { eftReady } from "@/shared/constants";

/**
 * How cards are taken: the real card provider when its keys are set; else the test checkout where
 * its definition offers it (real money only in production: registry.ts, the test provider's
 * `offered`), else off.
 */
export function cardModeFor(config: FastifyInstance["config"]): PaymentMethods["card"] {
  const card = cardProviderFor(config);
  if (!card.test) return card.name;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
  return (card.offered?.(config, publicUrl) ?? true) ? card.name : "off";
}

/**
 * Which ways to pay are on (GET /api/payments/methods; the reminders name them too): card, the
 * hosted providers, EFT; and how the login will go (lib/login-channel.ts), for the pages' promises.
 */
export async function paymentMethods(app: FastifyInstance): Promise<PaymentMethods> {
  return {
    card: cardModeFor(app.config),
    eft: eftReady((await loadBusiness(app)).settings),
    providers: [...selectHostedProviders(app.config).values()].map((p) => ({ id: p.name, name: p.label })),
    loginChannel: await shopLoginChannel(app.db, app.outbox.cloudApi),
  };
}
