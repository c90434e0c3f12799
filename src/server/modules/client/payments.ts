// The client's money matters:
//   GET  /api/client/payments               → {data: their payments, newest first}
//   GET  /api/client/payments/:ref/receipt  → {data: receipt} of one of THEIR paid payments, else 404
//   POST /api/client/renew {packageId?, method} → a card pay link or an EFT reference for them
//   GET  /api/client/specials               → {data: {specials, plans}} with what they would pay
// Pricing, pay links and EFT references come from the payments service (one implementation);
// the client id is always the session's, so the webhook extends THIS client's subscription.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { providerDefinition } from "@/server/adapters/payments/registry";
import { requireClient } from "@/server/auth/guards";
import { capturedPayments, type clients } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, notFound } from "@/server/lib/errors";
import { enforce } from "@/server/lib/rate-limit";
import { unavailablePackages } from "@/server/lib/sellable";
import { listActiveSpecials, listPackages, specialsAt } from "@/server/modules/catalogue/service";
import { createPaymentsService, type PaymentsService } from "@/server/modules/payments/service";
import type { PaymentStatus } from "@/shared/api";
import {
  type ClientPayment,
  type ClientPlan,
  type ClientReceipt,
  type ClientRenewResponse,
  type ClientSpecials,
  type RenewRequest,
  renewRequestSchema,
  SUSPENDED_PAYMENT_MESSAGE,
} from "@/shared/client-schemas";
import { isValidEmail } from "@/shared/contact";
import { buildPlans } from "@/shared/pricing";
import { loadOwnClient, parseBody, signedInId } from "./service";

type PaymentRow = typeof capturedPayments.$inferSelect;
type ClientRow = typeof clients.$inferSelect;

/** Payments a receipt can be shown for: money was taken (a refund keeps its receipt, marked refunded). */
const RECEIPT_STATUSES = ["paid", "refunded"];
const METHOD_LABELS: Record<string, string> = { eft: "EFT", manual: "Manual" };
/**
 * How the client's list names the way a payment was made: the card provider is just "Card" (the
 * test checkout says so), a provider beside it by its own name (the registry's), EFT and manual as such.
 */
function methodLabel(provider: string): string {
  const known = providerDefinition(provider);
  if (!known) return METHOD_LABELS[provider] ?? provider;
  if (known.role === "card") return known.test ? "Card (test checkout)" : "Card";
  return known.sentenceName;
}
const PAYMENT_STATUSES: readonly PaymentStatus[] = ["pending", "paid", "failed", "cancelled", "refunded"];
const refParam = z.object({
  ref: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Not a payment reference"),
});

function toPayment(row: PaymentRow): ClientPayment {
  const status = (PAYMENT_STATUSES as readonly string[]).includes(row.status) ? (row.status as PaymentStatus) : "pending";
  return {
    reference: row.external_transaction_id,
    date: (row.paid_at ?? row.created_at).toISOString(),
    amount: row.amount,
    currency: row.currency,
    package: row.package_name,
    status,
    provider: row.provider,
    method: methodLabel(row.provider),
    paid_at: row.paid_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    has_receipt: RECEIPT_STATUSES.includes(row.status),
  };
}

/**
 * A renewal's payment for this client (the portal's renew step, and the one-tap pay link of
 * modules/pay-links): the same pricing and payer path as every payment, the client's id on it, so
 * its capture extends THIS client's term. A suspended client cannot pay (409).
 */
export async function startRenewal(
  payments: PaymentsService,
  client: Pick<ClientRow, "id" | "status" | "package_id" | "email">,
  input: RenewRequest,
  ip: string,
): Promise<ClientRenewResponse> {
  // A payment cannot lift a suspension: refuse before any money changes hands.
  if (client.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
  const packageId = input.packageId ?? client.package_id;
  if (!packageId) throw badRequest("Please choose a package", { packageId: "Please choose a package" });
  // The client pays for themselves: the payment carries their id.
  const session = { clientId: client.id, ip };
  if (input.method !== "eft") {
    // Card, or one of the providers the owner turned on beside it: a pay link either way.
    const link = await payments.paylinkFor({ packageId, clientId: client.id, coupon: input.coupon, method: input.method }, session);
    return { success: true, method: input.method, paylinkUrl: link.paylinkUrl, externalTransactionID: link.externalTransactionID };
  }
  const email = isValidEmail(client.email) ? client.email.trim() : undefined;
  const eft = await payments.eftFor({ packageId, clientId: client.id, email, coupon: input.coupon }, session);
  return { success: true, method: "eft", reference: eft.reference, amount: eft.amount, package_name: eft.package_name, bank: eft.bank };
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const payments = createPaymentsService(app);

  app.get("/client/payments", { preHandler: requireClient }, async (request): Promise<{ data: ClientPayment[] }> => {
    const rows = await app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.client_id, signedInId(request)))
      .orderBy(desc(capturedPayments.created_at), asc(capturedPayments.id));
    return { data: rows.map(toPayment) };
  });

  app.get(
    "/client/payments/:ref/receipt",
    { preHandler: requireClient, schema: { params: refParam } },
    async (request): Promise<{ data: ClientReceipt }> => {
      const [row] = await app.db
        .select()
        .from(capturedPayments)
        .where(
          and(
            eq(capturedPayments.external_transaction_id, request.params.ref),
            eq(capturedPayments.client_id, signedInId(request)),
            inArray(capturedPayments.status, RECEIPT_STATUSES),
          ),
        )
        .limit(1);
      // Someone else's payment and an unpaid one read the same: not found.
      if (!row) throw notFound("No paid payment with that reference on your account.");
      const [client, business] = await Promise.all([loadOwnClient(app, request), loadBusiness(app)]);
      return {
        data: {
          ...toPayment(row),
          description: row.description,
          client: { full_name: client.full_name, username: client.username, email: client.email },
          business: {
            name: business.companyName,
            email: business.supportEmail,
            whatsapp: business.whatsappNumber,
            url: business.publicUrl,
          },
          vat_note: business.settings.vat_note ?? "",
        },
      };
    },
  );

  app.post("/client/renew", { preHandler: requireClient }, async (request, reply): Promise<ClientRenewResponse> => {
    const clientId = signedInId(request);
    await enforce(app.db, [{ key: `client-renew:acct:${clientId}`, limit: app.config.PUBLIC_WRITE_LIMIT_PER_MIN }]);
    const input = parseBody(renewRequestSchema, request.body);
    const client = await loadOwnClient(app, request);
    const answer = await startRenewal(payments, client, input, request.ip);
    reply.status(201);
    return answer;
  });

  app.get("/client/specials", { preHandler: requireClient }, async (request): Promise<{ data: ClientSpecials }> => {
    const [client, packages, windowed] = await Promise.all([
      loadOwnClient(app, request),
      app.cache.get("client:packages", ["packages"], async () =>
        listPackages(app.db, await unavailablePackages(app.db, app.provisioning.panel.mode)),
      ),
      app.cache.get("client:specials", ["pricing_specials"], () => listActiveSpecials(app.db)),
    ]);
    // The same window rule as GET /api/specials and the pay link's pricing, applied now.
    const specials = specialsAt(windowed, Date.now());
    // An existing client is past the free trial: only the real packages, with their price today.
    const plans: ClientPlan[] = [];
    for (const plan of buildPlans(packages, specials)) {
      if (plan.packageId) plans.push({ ...plan, packageId: plan.packageId, isCurrent: plan.packageId === client.package_id });
    }
    return { data: { specials, plans } };
  });
};

export default routes;
