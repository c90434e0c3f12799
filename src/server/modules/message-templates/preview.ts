// A template filled with a real client's data, as the editor's preview shows it. Secrets are
// never filled in: their variables show "[link sent at send time]" (or the password's words).

import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { capturedPayments, type clients, creditNotes, invoices } from "@/server/db/schema";
import { appForDevice } from "@/server/lib/accounts";
import type { BusinessProfile } from "@/server/lib/business";
import { lineNoticeVars, loadRules } from "@/server/lib/lifecycle";
import { SECRET_PLACEHOLDER, SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { reminderVars } from "@/server/lib/reminder-words";
import { welcomeVars } from "@/server/modules/admin-business/messages";
import { refundVars } from "@/server/modules/billing/messages";
import { resetLinkVars } from "@/server/modules/client/messages";
import { credentialsVars } from "@/server/modules/panel/messages";
import { currentStreamUrl } from "@/server/modules/panel/settings";
import { loadPayLinks } from "@/server/modules/pay-links/links";
import { receiptVars } from "@/server/modules/payments/messages";
import { paymentMethods } from "@/server/modules/payments/service";
import { graceEnd } from "@/shared/lifecycle";
import { SECRET_PASSWORD_PREVIEW, SECRET_PREVIEW, type TemplateKind } from "@/shared/message-templates";
import { fromCents } from "@/shared/money";

type Client = typeof clients.$inferSelect;

const DAY_MS = 86_400_000;

/** Each secret's placeholder replaced by words saying it is put in when sent. */
function withoutSecrets(vars: Record<string, string>, words: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, v.replaceAll(SECRET_PLACEHOLDER, words).replaceAll(SECRET_URL_PLACEHOLDER, words)]),
  );
}

/** The variables the kind's sender would use for this client (a reminder as on its day). */
export async function previewVars(app: FastifyInstance, business: BusinessProfile, kind: TemplateKind, client: Client) {
  const now = new Date();
  switch (kind) {
    case "welcome": {
      const guide = await appForDevice(app.db, client.device);
      return withoutSecrets(welcomeVars(business, { client, app: guide, setPasswordLink: true }), SECRET_PREVIEW);
    }
    case "credentials": {
      const guide = await appForDevice(app.db, client.device);
      const vars = credentialsVars(business, {
        client,
        line: {
          username: client.line_username || client.username,
          password: "",
          expires_at: client.line_expires_at ?? client.subscription_end,
        },
        streamUrl: client.line_portal_url || (await currentStreamUrl(app)),
        test: client.line_is_test,
        app: guide,
      });
      return withoutSecrets(vars, SECRET_PASSWORD_PREVIEW);
    }
    case "receipt": {
      const [latest] = await app.db
        .select({ payment: capturedPayments, invoice: invoices.number })
        .from(capturedPayments)
        .leftJoin(invoices, eq(invoices.payment_id, capturedPayments.id))
        .where(and(eq(capturedPayments.client_id, client.id), eq(capturedPayments.status, "paid")))
        .orderBy(desc(capturedPayments.paid_at))
        .limit(1);
      const payment = latest?.payment;
      return receiptVars(business, {
        name: client.full_name,
        reference: payment?.external_transaction_id ?? "SD-EXAMPLE",
        invoice: latest?.invoice ?? "INV-000000",
        packageName: payment?.package_name || client.package_name || "subscription",
        amount: payment?.amount ?? 0,
        paidAt: payment?.paid_at ?? now,
        subscriptionEnd: client.subscription_end,
        suspended: client.status === "suspended",
      });
    }
    case "line-suspended":
    case "line-restored":
      // as the client would read it after the change: suspended, or back to what their term says
      return lineNoticeVars(
        business,
        kind === "line-restored" && client.status === "suspended" ? { ...client, status: client.suspended_from ?? "active" } : client,
        { rules: await loadRules(app) },
      );
    case "refund-issued": {
      // The client's latest credit note, else an example; the line as it stands now, on WhatsApp
      // when that is their channel (the e-mail's only difference is "attached").
      const [latest] = await app.db
        .select({ note: creditNotes, invoice: invoices.number, payment: capturedPayments })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id))
        .innerJoin(capturedPayments, eq(capturedPayments.id, creditNotes.payment_id))
        .where(eq(creditNotes.client_id, client.id))
        .orderBy(desc(creditNotes.issued_at))
        .limit(1);
      const channel = client.communication_method === "email" && client.email ? "email" : client.whatsapp ? "whatsapp" : "email";
      return refundVars(
        business,
        {
          name: client.full_name,
          packageName: latest?.payment.package_name || client.package_name,
          amount: latest ? fromCents(latest.note.incl_cents) : 100,
          reference: latest?.payment.external_transaction_id ?? "SD-EXAMPLE",
          invoice: latest?.invoice ?? "INV-000000",
          creditNote: latest?.note.number ?? "CN-000000",
          method: latest?.note.method === "provider" ? "provider" : "manual",
          reason: latest?.note.reason ?? "Two days without service",
          client,
          termChanged: latest ? latest.note.term_change !== "kept" : false,
        },
        channel,
        await loadRules(app),
      );
    }
    case "password-reset":
      return withoutSecrets(resetLinkVars(business, { name: client.full_name, username: client.username }), SECRET_PREVIEW);
    default: {
      // A reminder as it reads on its day: the clock set that many days before the client's end.
      const trial = kind === "trial-ending" || kind === "trial-ended";
      const threshold =
        kind === "reminder-expired" || kind === "trial-ended" ? "expired" : kind === "trial-ending" ? "1d" : kind.slice("reminder-".length);
      const end = client.subscription_end ?? new Date(now.getTime() + 7 * DAY_MS);
      const daysBefore = threshold === "expired" ? 0 : threshold === "1d" ? 0.5 : Number.parseInt(threshold, 10);
      const rules = await loadRules(app);
      return reminderVars(business, threshold, {
        name: client.full_name,
        packageName: client.package_name,
        end,
        trial,
        now: new Date(end.getTime() - daysBefore * DAY_MS),
        graceUntil: trial ? null : graceEnd(end, rules),
        // the link their message would carry: the one-tap pay link for their package
        clientId: client.id,
        packageId: client.package_id,
        payLinks: await loadPayLinks(app),
        // the ways to pay it names: those on now
        methods: await paymentMethods(app),
      });
    }
  }
}
