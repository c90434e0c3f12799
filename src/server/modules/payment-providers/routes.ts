// GET /api/payment-providers → {data}: every registered payment provider as the pages show it
// (label, name in a sentence, mark, role, whether it is the test checkout, what it can do, how its
// refunds go back), from the registry (adapters/payments/registry.ts). Every one, on or not: the
// admin's payments list still names a provider since turned off; which are on is
// GET /api/payments/methods. Facts of the code, never of the configuration: no keys, no state.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { paymentProviderInfos } from "@/server/adapters/payments/registry";
import type { PaymentProviderInfo } from "@/shared/api";

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const data = paymentProviderInfos();
  app.get(
    "/payment-providers",
    { schema: { querystring: z.object({}) } },
    async (): Promise<{ data: PaymentProviderInfo[] }> => ({ data }),
  );
};

export default routes;
