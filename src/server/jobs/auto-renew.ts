// Automatic renewals (issue 44): hourly, each term's notice and its one charge
// (modules/auto-renew/renewals.ts, where the claims that make them once live).
import type { FastifyInstance } from "fastify";
import { cancelReplacedCards } from "@/server/modules/auto-renew/card-change";
import { runAutoRenewals } from "@/server/modules/auto-renew/renewals";
import { cancelPending } from "@/server/modules/auto-renew/service";

export const autoRenewJob = {
  name: "auto-renew",
  everyMs: 60 * 60_000,
  run: async (app: FastifyInstance) => {
    await runAutoRenewals(app);
    // renewals turned off by a refund or a suspension: the provider is told to forget the card
    await cancelPending(app);
    // cards replaced by "Use another card": the provider is told to forget the old one, once
    await cancelReplacedCards(app);
  },
};
