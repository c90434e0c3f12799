// Automatic renewals (issue 44): hourly, each term's notice and its one charge
// (modules/auto-renew/renewals.ts, where the claims that make them once live).
import type { FastifyInstance } from "fastify";
import { runAutoRenewals } from "@/server/modules/auto-renew/renewals";

export const autoRenewJob = {
  name: "auto-renew",
  everyMs: 60 * 60_000,
  run: (app: FastifyInstance) => runAutoRenewals(app),
};
