// What money does once it is confirmed, whichever way it came (the card webhook, a status
// query, an EFT an admin marks paid, a payment recorded by hand). Runs inside the transaction
// that marked the payment paid, so none of it can happen twice or without the others:
//   1. the person: the payment's client; else the client its lead is (a returning client); else
//      a new client account made from the lead, its portal login sent on their channel;
//   2. the term: one 'payment-captured' cause through the lifecycle module (key payment:<id>):
//      time from the current end while a term runs, else from now; a suspension stays;
//   3. the messages: one receipt, and one notice to the business saying what was queued to the
//      customer (and on which channel) and what happens on the panel in its mode.
import { and, eq, like, ne } from "drizzle-orm";
import type { PanelMode } from "@/server/adapters/panel/panel";
import type { Db } from "@/server/db/client";
import { capturedPayments, clients, leads, packages, provisioningJobs } from "@/server/db/schema";
import { appForDevice, type ClientRow, insertClientFromLead, maskedHint, setPasswordLink } from "@/server/lib/accounts";
import { type BusinessProfile, signOff } from "@/server/lib/business";
import { applyChange, paymentActor } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueue, enqueueAll } from "@/server/lib/outbox";
import { alertsEmail } from "@/server/lib/owner-alerts";
import { keepDeviceLine } from "@/server/lib/provisioning";
import { channelsFor, welcomeMessages } from "@/server/modules/admin-business/messages";
import { settleCardChange } from "@/server/modules/auto-renew/card-change";
import { redeemCoupon } from "@/server/modules/billing/coupons";
import { issueInvoice } from "@/server/modules/billing/documents";
import { settlePartnerCreditOrder } from "@/server/modules/resellers/settle-order";
import { formatDate } from "@/shared/dates";
import type { LifecycleRules } from "@/shared/lifecycle";
import { formatRand } from "@/shared/money";
import { packageMonths } from "@/shared/pricing";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { holdForSuspendedClient } from "./held";
import { receiptEmail } from "./messages";
import { queueReceipt, type ReceiptTarget } from "./receipt";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Payment = typeof capturedPayments.$inferSelect;

export interface SettleContext {
  business: BusinessProfile;
  rules: LifecycleRules;
  /**
   * How the panel works (app.provisioning.panel.mode): the owner's notice says whether the line
   * is made automatically or is a task for them. Unknown: the notice points at the panel page.
   */
  panelMode?: PanelMode;
  /** whether WhatsApp goes through the Cloud API here (app.outbox.cloudApi): the owner's notice says what happens to WhatsApp messages */
  cloudApi?: boolean;
}

export interface Settled {
  client: ClientRow | null;
  /** this payment made the client's account */
  created: boolean;
  /** time was added to the client's term */
  extended: boolean;
}

/** Months the payment's package buys (the package row, else the name it was paid under). */
export async function monthsPaidFor(tx: Tx, payment: Payment): Promise<number> {
  const [pkg] = payment.package_id
    ? await tx
        .select({ duration_months: packages.duration_months, duration: packages.duration, name: packages.name })
        .from(packages)
        .where(eq(packages.id, payment.package_id))
    : [];
  return packageMonths(pkg ?? { duration_months: null, duration: payment.package_name, name: payment.package_name }) ?? 0;
}

/** Who the payment is for, making their account from the lead when they are not a client yet. */
async function payerOf(tx: Tx, payment: Payment, now: Date): Promise<{ client: ClientRow | null; created: boolean }> {
  if (payment.client_id) {
    const [client] = await tx.select().from(clients).where(eq(clients.id, payment.client_id));
    if (client) {
      // The returning client's order is answered by this payment: its lead is done too.
      if (payment.lead_id) {
        await tx
          .update(leads)
          .set({ status: "converted", client_id: client.id, updated_at: now })
          .where(and(eq(leads.id, payment.lead_id), ne(leads.status, "converted")));
      }
      return { client, created: false };
    }
  }
  if (!payment.lead_id) return { client: null, created: false };
  const [lead] = await tx.select().from(leads).where(eq(leads.id, payment.lead_id)).for("update");
  if (!lead) return { client: null, created: false };

  let client: ClientRow | null = null;
  if (lead.client_id) [client] = await tx.select().from(clients).where(eq(clients.id, lead.client_id));
  const created = !client;
  if (!client) client = await insertClientFromLead(tx, lead, { packageId: payment.package_id, packageName: payment.package_name });
  await tx.update(leads).set({ status: "converted", client_id: client.id, updated_at: now }).where(eq(leads.id, lead.id));
  await tx
    .update(capturedPayments)
    .set({ client_id: client.id, client_created: created, client_email: payment.client_email || client.email, updated_at: now })
    .where(eq(capturedPayments.id, payment.id));
  return { client, created };
}

/** Settles a payment that was just marked paid, in the same transaction. */
export async function settlePayment(tx: Tx, context: SettleContext, payment: Payment, now: Date): Promise<Settled> {
  // A partner's credits bought from the shop (issue 45): settled by the resellers module, nothing else.
  if (await settlePartnerCreditOrder(tx, context, payment, now)) return { client: null, created: false, extended: false };
  // Paid unproved from a suspended client's number (issue 46): held for the owner, nothing set up (held.ts).
  if (await holdForSuspendedClient(tx, context, payment, now)) return { client: null, created: false, extended: false };
  // A card-saving checkout for automatic renewals (issue 44): its card is kept after (auto-renew/cards.ts), nothing else.
  if (await settleCardChange(tx, payment)) return { client: null, created: false, extended: false };
  const { business, rules } = context;
  const payer = await payerOf(tx, payment, now);
  let client = payer.client;
  let extended = false;
  // A MAG or Enigma2 box paid for: its MAC goes onto a client whose line is still to be made.
  if (client) client = await keepDeviceLine(tx, client, payment);
  if (client) {
    const result = await applyChange(tx, {
      clientId: client.id,
      cause: { kind: "payment-captured", months: await monthsPaidFor(tx, payment) },
      causeKey: `payment:${payment.id}`,
      actor: paymentActor(payment.external_transaction_id),
      rules,
      now,
      package: { id: payment.package_id, name: payment.package_name },
    });
    client = result.client;
    extended = result.applied;
    if (!result.applied && result.refused) {
      await tx
        .update(capturedPayments)
        .set({ notes: `${payment.notes ? `${payment.notes}\n` : ""}Not added to the term: ${result.refused}`.trim() })
        .where(eq(capturedPayments.id, payment.id));
    }
  }

  const templates = await loadTemplates(tx);
  // A new account's welcome: the portal, a link to choose a password, the app for their device.
  if (client && payer.created) {
    const link = await setPasswordLink(tx, business, client.id, now);
    const app = await appForDevice(tx, client.device);
    const welcome = welcomeMessages(business, { client, app, setPasswordLink: link }, templates);
    await enqueueAll(
      tx,
      welcome.map((m) => ({ ...m, lead_id: payment.lead_id })),
    );
  }

  // What this payment asks of the panel (the owner's notice and the receipt both say it).
  const jobs = client
    ? await tx
        .select({ action: provisioningJobs.action })
        .from(provisioningJobs)
        .where(like(provisioningJobs.cause_key, `payment:${payment.id}:%`))
    : [];

  // The business hears of every payment: a line to set up, renew, or a payer to sort out by hand,
  // at the owner's alerts e-mail (it names the client: never the public support address).
  const ownerEmail = await alertsEmail(tx);
  if (ownerEmail) {
    const who = client ? `${client.full_name} (${client.username})` : payment.client_email || "someone we could not match to a client";
    const queued = [
      payer.created && client ? customerQueued("their portal login", channelsFor(client, { alsoEmail: true })) : "",
      customerQueued("their receipt", [receiptTarget(payment, client)]),
    ].filter(Boolean);
    const todo = !client
      ? "Nobody is linked to this payment: find the payer and link the payment to their client account."
      : client.status === "suspended"
        ? "The client is suspended: the time was added, and the suspension stays until you reactivate them."
        : [
            payer.created ? "A new client account was made." : "Their term was extended.",
            queued.length ? `Queued to them: ${queued.join("; ")}.` : "",
            queued.some((q) => q.includes("on WhatsApp"))
              ? context.cloudApi
                ? 'WhatsApp messages go through the WhatsApp Cloud API; one it cannot send (no approved template and no open chat) goes by e-mail where there is an address, or waits for you under "To send on WhatsApp" on the dashboard.'
                : 'WhatsApp is not connected to the Cloud API, so WhatsApp messages wait for you under "To send on WhatsApp" on the dashboard.'
              : "",
            panelTodo(
              jobs.map((j) => j.action),
              context.panelMode,
              context.business.publicUrl,
            ),
          ]
            .filter(Boolean)
            .join("\n");
    // A payer who matched an existing client without proving it: a new client, for the owner to look at.
    const [suspect] = client?.possible_duplicate_of
      ? await tx
          .select({ full_name: clients.full_name, username: clients.username })
          .from(clients)
          .where(eq(clients.id, client.possible_duplicate_of))
      : [];
    const flag = suspect
      ? `\nThe payer's number or e-mail address is also on ${suspect.full_name} (${suspect.username}), but they did not prove they are that client, so this payment made its own account. If they are the same person, merge the new account into ${suspect.username} on its client page (Possible duplicate); if not, dismiss the flag.`
      : "";
    await enqueue(tx, {
      channel: "email",
      recipient: ownerEmail,
      subject: `Payment received: ${formatRand(payment.amount)} for ${payment.package_name} from ${client?.full_name || who}`,
      body: [
        `${formatRand(payment.amount)} received for ${payment.package_name} (reference ${payment.external_transaction_id}, ${payment.provider}).`,
        `Client: ${who}.`,
        client?.subscription_end && extended ? `Their subscription now runs until ${formatDate(client.subscription_end)}.` : "",
        "",
        todo + flag,
        "",
        signOff(business),
      ]
        .filter((line, i, all) => line !== "" || all[i - 1] !== "")
        .join("\n"),
      kind: "payment-received",
      client_id: client?.id ?? null,
      dedupe_key: `payment-received:${payment.id}`,
    });
  }

  // Last, the invoice: its number is taken under the series' row lock, which every other
  // capture waits on until this transaction commits, so as little as possible follows it.
  // Numbered from the gap-free series, with the coupon's one use: once per payment.
  const invoice = await issueInvoice(tx, business, payment, client, now);
  await redeemCoupon(tx, payment, client);

  // One receipt: by e-mail when there is an address (the invoice attached), else on WhatsApp.
  const receipt = receiptEmail(
    business,
    {
      name: client?.full_name ?? "",
      reference: payment.external_transaction_id,
      packageName: payment.package_name,
      amount: payment.amount,
      paidAt: payment.paid_at ?? now,
      subscriptionEnd: extended ? (client?.subscription_end ?? null) : null,
      newAccount: payer.created,
      suspended: client?.status === "suspended",
      invoice: invoice.number,
      newLine: jobs.some((j) => j.action === "create_line")
        ? context.panelMode === "xtream" || context.panelMode === "sandbox"
          ? "automatic"
          : "by-hand"
        : null,
    },
    templates,
  );
  await queueReceipt(tx, receiptTarget(payment, client), receipt, {
    paymentId: payment.id,
    invoice: invoice.number,
    client_id: client?.id ?? null,
    lead_id: payment.lead_id,
  });

  return { client, created: payer.created, extended };
}

function receiptTarget(payment: Payment, client: ClientRow | null): ReceiptTarget | null {
  const email = payment.client_email || client?.email || "";
  if (email) return { channel: "email", recipient: email };
  const [whatsapp] = client ? channelsFor({ ...client, communication_method: "whatsapp", email: "" }) : [];
  return whatsapp ?? null;
}

/** Where the receipt and (for a new account) the portal login of this payment went, masked. */
export function sentTo(payment: Pick<Payment, "client_email" | "client_created">, client: ClientRow | null) {
  if (!client) return [];
  const targets = payment.client_created ? channelsFor(client, { alsoEmail: true }) : [receiptTarget(payment as Payment, client)];
  return targets.filter((t) => t !== null).map((t) => ({ channel: t.channel, hint: maskedHint(t.channel, t.recipient) }));
}

/** "their receipt by e-mail to a@b.co.za" / "their portal login on WhatsApp to +27 83 …": what the customer was queued. */
function customerQueued(what: string, targets: readonly ({ channel: "email" | "whatsapp"; recipient: string } | null)[]): string {
  const places = targets
    .filter((t) => t !== null)
    .map((t) =>
      t.channel === "whatsapp" ? `on WhatsApp to ${formatPhoneForDisplay(t.recipient) || t.recipient}` : `by e-mail to ${t.recipient}`,
    );
  return places.length ? `${what} ${places.join(" and ")}` : "";
}

/** What happens on the panel for this payment, in the owner's words for the panel mode. */
export function panelTodo(actions: readonly string[], mode: PanelMode | undefined, publicUrl = ""): string {
  if (actions.length === 0) return "";
  const creates = actions.includes("create_line");
  if (mode === "manual") {
    const where = publicUrl ? ` ${publicUrl}/admin/panel#panel-jobs` : "";
    return creates
      ? `Make this line on your panel, then paste its login in the task on the dashboard:${where || " the panel page's tasks."}`
      : `Renew this line on your panel, then mark the task done on the dashboard:${where || " the panel page's tasks."}`;
  }
  if (mode === "xtream" || mode === "sandbox") {
    return creates
      ? "The line is being created on the panel automatically; the login goes to the customer when it is made."
      : "The line is being renewed on the panel automatically.";
  }
  return creates
    ? "A job to create their line was queued: see the dashboard's IPTV panel page."
    : "A job to renew their line was queued: see the dashboard's IPTV panel page.";
}
