// A visitor paying through the sandbox card provider, as API tests need it: the pay link is
// created, "Pay" is pressed on the sandbox's checkout page, and the payment row is read back
// (paid). `deliverSandboxAgain` replays the provider's signed callback for that payment, as a
// provider retrying its webhook would. The app must run with `SANDBOX_SECRET` = the secret given.
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { SANDBOX_APP_ID } from "@/server/adapters/payments/sandbox/adapter";
import { ikSignature } from "@/server/adapters/payments/signing";
import type { App } from "@/server/app";
import { capturedPayments } from "@/server/db/schema";

const ORIGIN = "http://localhost:8080";

export type PaidPayment = typeof capturedPayments.$inferSelect;

/** Creates the pay link for `order` from `ip`, presses Pay, and answers the payment row (paid). */
export async function payOnSandbox(app: App, order: Record<string, unknown>, ip: string): Promise<PaidPayment> {
  const created = await app.inject({ method: "POST", url: "/api/payments/paylink", payload: order, remoteAddress: ip });
  expect(created.statusCode, created.body).toBe(201);
  const ref = created.json().externalTransactionID as string;
  const pressed = await app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/pay`,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  expect(pressed.statusCode).toBe(303);
  const [payment] = await app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
  expect(payment.status).toBe("paid");
  return payment;
}

/** The sandbox's "payment succeeded" callback for `payment` again, signed with `secret`. */
export function deliverSandboxAgain(
  app: App,
  payment: Pick<PaidPayment, "external_transaction_id" | "provider_reference">,
  secret: string,
) {
  const rawBody = JSON.stringify({
    paylinkID: payment.provider_reference,
    status: "SUCCESS",
    externalTransactionID: payment.external_transaction_id,
  });
  return app.inject({
    method: "POST",
    url: "/api/payments/webhook/sandbox",
    payload: rawBody,
    headers: {
      "content-type": "application/json",
      "ik-appid": SANDBOX_APP_ID,
      "ik-sign": ikSignature("/api/payments/webhook/sandbox", rawBody, secret),
    },
  });
}
