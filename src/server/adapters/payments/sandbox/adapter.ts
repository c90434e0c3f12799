// The local sandbox provider: the default when no iKhokha keys are configured. It keeps its
// own ledger (sandbox_paylinks, what a real provider would hold), serves its "hosted checkout"
// from our server, and signs its callbacks with iKhokha's scheme so the webhook code path is
// the one a real provider exercises.
import { randomBytes } from "node:crypto";
import { and, eq, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { sandboxPaylinks } from "@/server/db/schema";
import type * as Contract from "../provider";
import { PaymentProviderError, statusFromProvider } from "../provider";
import { headerValue, ikSignature, signatureMatches } from "../signing";

/** The app id the sandbox puts in its callbacks' ik-appid header. */
export const SANDBOX_APP_ID = "streamdesk-sandbox";

export type SandboxOutcome = "SUCCESS" | "FAILURE" | "CANCELLED";
export type SandboxPaylink = typeof sandboxPaylinks.$inferSelect;

export interface SandboxProvider extends Contract.PaymentProvider {
  readonly name: "sandbox";
  /** The ledger row behind a checkout page, by our externalTransactionID. */
  find(externalTransactionID: string): Promise<SandboxPaylink | null>;
  /**
   * The customer pressed Pay, Decline or Cancel. Only a pending pay link changes; `settled`
   * says whether this call changed it (a second click finds it already settled).
   */
  settle(externalTransactionID: string, outcome: SandboxOutcome): Promise<{ settled: boolean; paylink: SandboxPaylink } | null>;
  /** The signed callback a provider would POST for this pay link's current state. */
  callbackFor(paylink: SandboxPaylink): { url: string; request: Contract.CallbackRequest };
}

export interface SandboxOptions {
  db: Db;
  /** PUBLIC_URL without a trailing slash */
  publicUrl: string;
  /**
   * SANDBOX_SECRET. When unset a random secret is made per process: fine for one process,
   * but behind a load balancer every instance must share SANDBOX_SECRET, or a callback
   * signed by one instance fails verification on another.
   */
  secret?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createSandboxProvider(options: SandboxOptions): SandboxProvider {
  const { db } = options;
  const secret = options.secret?.trim() || randomBytes(32).toString("hex");
  const checkoutUrl = (ref: string) => `${options.publicUrl}/api/payments/sandbox/checkout/${encodeURIComponent(ref)}`;

  const find = async (ref: string): Promise<SandboxPaylink | null> => {
    const [row] = await db.select().from(sandboxPaylinks).where(eq(sandboxPaylinks.external_transaction_id, ref)).limit(1);
    return row ?? null;
  };

  return {
    name: "sandbox",

    async refund(paylinkID: string, amountCents: number) {
      const [row] = await db
        .select()
        .from(sandboxPaylinks)
        .where(eq(sandboxPaylinks.id, UUID.test(paylinkID) ? paylinkID : "00000000-0000-0000-0000-000000000000"));
      if (row?.status !== "SUCCESS") throw new PaymentProviderError("The sandbox has no paid pay link with that id.", 404);
      if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > row.amount_cents) {
        throw new PaymentProviderError(`A refund must be 1 to ${row.amount_cents} cents, not ${amountCents}`, 400);
      }
      return { reference: `SBX-RF-${randomBytes(6).toString("hex").toUpperCase()}` };
    },

    async createPaylink(input: Contract.CreatePaylinkInput): Promise<Contract.CreatedPaylink> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      const [row] = await db
        .insert(sandboxPaylinks)
        .values({
          external_transaction_id: input.externalTransactionID,
          amount_cents: input.amountCents,
          description: input.description,
          callback_url: input.urls.callbackUrl,
          success_url: input.urls.successPageUrl,
          failure_url: input.urls.failurePageUrl,
          cancel_url: input.urls.cancelUrl,
        })
        .onConflictDoNothing({ target: sandboxPaylinks.external_transaction_id })
        .returning({ id: sandboxPaylinks.id });
      if (!row) throw new PaymentProviderError(`A sandbox pay link for ${input.externalTransactionID} already exists`);
      return { paylinkUrl: checkoutUrl(input.externalTransactionID), paylinkID: row.id };
    },

    async getStatus(id: string): Promise<Contract.PaylinkStatusResult> {
      const match = UUID.test(id)
        ? or(eq(sandboxPaylinks.id, id), eq(sandboxPaylinks.external_transaction_id, id))
        : eq(sandboxPaylinks.external_transaction_id, id);
      const [row] = await db.select().from(sandboxPaylinks).where(match).limit(1);
      if (!row) throw new PaymentProviderError(`No sandbox pay link ${id}`, 404);
      return { status: statusFromProvider(row.status), amountCents: row.amount_cents };
    },

    verifyCallback(request: Contract.CallbackRequest): boolean {
      if (headerValue(request.headers, "ik-appid") !== SANDBOX_APP_ID) return false;
      return signatureMatches(headerValue(request.headers, "ik-sign"), request.path, request.rawBody, secret);
    },

    find,

    async settle(ref, outcome) {
      const [changed] = await db
        .update(sandboxPaylinks)
        .set({ status: outcome, updated_at: new Date() })
        .where(and(eq(sandboxPaylinks.external_transaction_id, ref), eq(sandboxPaylinks.status, "pending")))
        .returning();
      if (changed) return { settled: true, paylink: changed };
      const existing = await find(ref);
      return existing ? { settled: false, paylink: existing } : null;
    },

    callbackFor(paylink) {
      const rawBody = JSON.stringify({
        paylinkID: paylink.id,
        status: paylink.status,
        externalTransactionID: paylink.external_transaction_id,
        responseCode: paylink.status === "SUCCESS" ? "00" : "05",
      });
      const path = new URL(paylink.callback_url).pathname;
      return {
        url: paylink.callback_url,
        request: {
          path,
          rawBody,
          headers: { "content-type": "application/json", "ik-appid": SANDBOX_APP_ID, "ik-sign": ikSignature(path, rawBody, secret) },
        },
      };
    },
  };
}
