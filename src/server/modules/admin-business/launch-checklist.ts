// The launch checklist on the overview (docs/architecture.md, "Dashboard"): what a new shop
// still shows customers from the demo seed or has not connected. Each item reads the same
// facts the rest of the server acts on (eftReady, the card mode, the panel's mode and mapping
// as provisioning reads them, the stream URL the links are built on, the outbox's last e-mail,
// the WhatsApp templates the worker looks up, the demo values the seed recorded), so "done"
// here means the shop really behaves that way (issue 28: it said "done" too early).
import { and, desc, eq, gt, inArray, isNotNull, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { configuredHostedProviders, providerDefinition, realCardProvider } from "@/server/adapters/payments/registry";
import { imageRegistry, outbox, packages, whatsappTemplates } from "@/server/db/schema";
import { demoContentLeft } from "@/server/db/seed";
import { DEFAULT_LOGO_URL, LOGO_IMAGE_KEYS } from "@/server/db/seed-content";
import { loadBusiness } from "@/server/lib/business";
import { alertsEmail, firstAdminEmail } from "@/server/lib/owner-alerts";
import { panelView } from "@/server/modules/panel/routes";
import { loadPanelSettings } from "@/server/modules/panel/settings";
import type { PaymentMethods } from "@/shared/api";
import type { LaunchChecklist, LaunchChecklistItem } from "@/shared/business-schemas";
import { eftMissing, eftReady } from "@/shared/constants";
import { MESSAGE_KINDS, messageKindLabel } from "@/shared/messaging";

/** The legal facts the public pages must show (ECT Act s43; POPIA's information officer). */
const LEGAL_FACTS: Record<string, string> = {
  business_legal_name: "registered name",
  business_address: "physical address",
  information_officer_name: "information officer",
  information_officer_email: "information officer's e-mail",
};

const BANK_WORDS: Record<string, string> = {
  eft_bank_name: "bank",
  eft_account_name: "account holder",
  eft_account_number: "account number",
  eft_branch_code: "branch code",
  eft_account_type: "account type",
};

/** Every kind of message the shop sends first (none is a reply inside a chat): each needs an approved template on the Cloud API. */
export const BUSINESS_INITIATED_KINDS = Object.keys(MESSAGE_KINDS);

/** 'a', 'a and b', 'a, b and c'. */
function listed(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** The last e-mail the worker tried: sent, or failing (its error kept). */
async function lastEmailAttempt(app: FastifyInstance) {
  const [row] = await app.db
    .select({ status: outbox.status, last_error: outbox.last_error, sent_at: outbox.sent_at, updated_at: outbox.updated_at })
    .from(outbox)
    .where(
      and(
        eq(outbox.channel, "email"),
        or(eq(outbox.status, "sent"), eq(outbox.status, "failed"), and(gt(outbox.attempts, 0), isNotNull(outbox.last_error))),
      ),
    )
    .orderBy(desc(outbox.updated_at))
    .limit(1);
  return row ?? null;
}

async function panelItem(app: FastifyInstance): Promise<LaunchChecklistItem> {
  const base = { key: "panel" as const, label: "IPTV panel connection", href: "/admin/panel" };
  const mode = app.provisioning.panel.mode;
  if (mode === "manual") return { ...base, done: true, why: "Manual mode: the dashboard lists each line for you to make on the panel." };
  if (mode === "sandbox")
    return {
      ...base,
      done: false,
      why: "Lines are made on the sandbox panel (test lines). Set PANEL_API_URL and PANEL_API_KEY (or PANEL_MODE=manual) on the server.",
    };
  const view = await panelView(app);
  if (!view.connected) return { ...base, done: false, why: `The panel could not be read: ${view.error ?? "no answer"}` };
  // what provisioning maps a payment with: every package a customer can buy, and the trial package
  const paid = await app.db
    .select({ id: packages.id, name: packages.name, price: packages.price })
    .from(packages)
    .where(eq(packages.is_active, true));
  const known = new Set(view.packages.map((p) => p.id));
  const unmapped = paid.filter((p) => Number(p.price) > 0 && !known.has(view.mapping[p.id] ?? "")).map((p) => p.name);
  const trialMapped = view.trial_package_id !== null && known.has(view.trial_package_id);
  const missing = [...unmapped.map((name) => `"${name}"`), ...(trialMapped ? [] : ["the free trial"])];
  return {
    ...base,
    done: missing.length === 0,
    why: missing.length
      ? `Connected, but no panel package is mapped for ${listed(missing)}: customers see it as not available and cannot buy it until you map it.`
      : "Connected, and every package (and the free trial) is mapped to one of the panel's.",
  };
}

/** The card item: the card provider (from the registry) real, a test one, or none; and the providers beside it. */
function cardItem(cardMode: PaymentMethods["card"], hosted: string[]): LaunchChecklistItem {
  const card = cardMode === "off" ? undefined : providerDefinition(cardMode);
  const real = card && !card.test;
  const keys = realCardProvider()?.configKeys ?? [];
  const setKeys = keys.length ? `Set ${listed([...keys])} on the server` : "Configure a card provider on the server";
  return {
    key: "card",
    label: "Card payments",
    done: Boolean(real) || hosted.length > 0,
    why: real
      ? `${card.sentenceName} is connected: card payments are real.${hosted.length ? ` Also on: ${hosted.join(", ")}.` : ""}`
      : hosted.length
        ? `${hosted.join(", ")} ${hosted.length === 1 ? "is" : "are"} connected: online payments are real.`
        : card
          ? `Card payments go to the TEST checkout. ${setKeys} to take real payments.`
          : `Card payments are off. ${setKeys} to take them.`,
    href: "/admin/payments",
  };
}

export async function loadLaunchChecklist(app: FastifyInstance, cardMode: PaymentMethods["card"]): Promise<LaunchChecklist> {
  // the providers the owner turned on beside the card provider: real online payments too
  const hosted = configuredHostedProviders(app.config).map((provider) => provider.sentenceName);
  const [business, demo, panelSettings, lastEmail, templates, logos, panel, alertsTo, firstAdmin] = await Promise.all([
    loadBusiness(app),
    demoContentLeft(app.db),
    loadPanelSettings(app),
    lastEmailAttempt(app),
    app.db
      .select({ kind: whatsappTemplates.kind, enabled: whatsappTemplates.enabled, meta: whatsappTemplates.meta_status })
      .from(whatsappTemplates),
    app.db
      .select({ key: imageRegistry.image_key })
      .from(imageRegistry)
      .where(and(inArray(imageRegistry.image_key, LOGO_IMAGE_KEYS), eq(imageRegistry.image_url, DEFAULT_LOGO_URL))),
    panelItem(app),
    alertsEmail(app.db),
    firstAdminEmail(app.db),
  ]);
  const s = business.settings;
  const missingLegal = Object.entries(LEGAL_FACTS)
    .filter(([key]) => !s[key]?.trim())
    .map(([, words]) => words);
  const demoBranding = new Set(demo.branding);
  const panelMode = app.provisioning.panel.mode;
  const demoLeft = demo.testimonials.length + demo.homepage.length + (demo.settings.includes("vat_note") ? 1 : 0) + (logos.length ? 1 : 0);
  const missingBank = eftMissing(s).map((key) => BANK_WORDS[key] ?? key);
  const smtp = Boolean(app.config.SMTP_URL);
  const cloudApi = app.outbox.cloudApi;
  const templated = new Set(templates.filter((t) => t.enabled).map((t) => t.kind));
  const waiting = templates.filter((t) => t.meta === "PENDING").length;
  const refused = templates.filter((t) => t.meta === "REJECTED").length;
  const untemplated = BUSINESS_INITIATED_KINDS.filter((kind) => !templated.has(kind));

  const items: LaunchChecklistItem[] = [
    {
      key: "bank",
      label: "Bank details for EFT",
      done: eftReady(s),
      why: eftReady(s)
        ? `${s.eft_bank_name}, account ${s.eft_account_number}`
        : `Customers are offered card only until the ${listed(missingBank)} ${missingBank.length === 1 ? "is" : "are"} filled in (no placeholder is ever shown).`,
      href: "/admin/settings",
    },
    {
      key: "legal",
      label: "Legal facts on the public pages",
      done: missingLegal.length === 0,
      why: missingLegal.length
        ? `The legal pages say "Available on request" for the ${listed(missingLegal)}. The ECT Act (s43) requires the address.`
        : "Registered name, address and information officer are shown.",
      href: "/admin/settings",
    },
    {
      key: "whatsapp",
      label: "Your WhatsApp number",
      done: Boolean(business.whatsappNumber) && !demoBranding.has("whatsapp_number"),
      why:
        business.whatsappNumber && !demoBranding.has("whatsapp_number")
          ? "Orders and replies go to your number."
          : "Orders and trial requests still go to the demo number.",
      href: "/admin/branding",
    },
    {
      key: "support_email",
      label: "Your support e-mail",
      done: Boolean(business.supportEmail) && !demoBranding.has("support_email"),
      why:
        business.supportEmail && !demoBranding.has("support_email")
          ? business.supportEmail
          : "The site and every message still show the demo address.",
      href: "/admin/branding",
    },
    {
      key: "alerts_email",
      label: "Where your alerts go",
      done: alertsTo !== "",
      why: alertsTo
        ? `Payments received, orders, panel failures, low credits and the daily summary go to ${alertsTo}${
            alertsTo === firstAdmin ? " (the first admin's address: set another under Your alerts)" : ""
          }, never to the support e-mail.`
        : "No address for your alerts: set one under Your alerts, or they reach you only on the dashboard.",
      href: "/admin/settings",
    },
    {
      key: "email_delivery",
      label: "Outgoing e-mail",
      done: smtp && lastEmail?.status === "sent",
      why: !smtp
        ? "No e-mail goes out: set SMTP_URL on the server. Until then every e-mail waits in the outbox."
        : !lastEmail
          ? "SMTP is set, but no e-mail has been sent yet: send yourself one (a password reset) to check it arrives."
          : lastEmail.status === "sent"
            ? "SMTP is set and the last e-mail went out."
            : `The last e-mail could not be sent: ${lastEmail.last_error ?? "no reason given"}. Check SMTP_URL.`,
      href: "/admin/outbox",
    },
    ...(cloudApi
      ? [
          {
            key: "whatsapp_templates" as const,
            label: "WhatsApp templates",
            done: untemplated.length === 0,
            why: untemplated.length
              ? [
                  "Cloud API connected.",
                  waiting ? `${waiting} ${waiting === 1 ? "template is" : "templates are"} waiting for Meta's approval.` : "",
                  refused ? `Meta refused ${refused}: see why under Templates at Meta.` : "",
                  `Messages you start reach WhatsApp only through an approved template; until then they go by e-mail where there is an address. None is approved for: ${listed(untemplated.map(messageKindLabel))}.`,
                ]
                  .filter(Boolean)
                  .join(" ")
              : "Cloud API connected, and every kind of message you start has its approved template.",
            href: "/admin/outbox",
          },
        ]
      : []),
    cardItem(cardMode, hosted),
    panel,
    ...(panelMode === "sandbox"
      ? []
      : [
          {
            key: "stream_url" as const,
            label: "Stream server URL",
            done: panelSettings.stream_url !== "",
            why: panelSettings.stream_url
              ? `Customers' links and QR codes are built on ${panelSettings.stream_url}.`
              : "No stream server is set: customers' M3U and EPG links would have no server. Set it on the panel page.",
            href: "/admin/panel",
          },
        ]),
    {
      key: "demo_content",
      label: "Demo content replaced",
      done: demoLeft === 0,
      why:
        demoLeft === 0
          ? "No demo reviews, texts or logo are left."
          : `${demoLeft} demo ${demoLeft === 1 ? "item is" : "items are"} still shown: ${listed(
              [
                demo.testimonials.length ? `${demo.testimonials.length} seeded reviews` : "",
                demo.homepage.length ? "the rating line" : "",
                demo.settings.includes("vat_note") ? "the VAT note" : "",
                logos.length ? "the default logo" : "",
              ].filter(Boolean),
            )}.`,
      href: demo.testimonials.length
        ? "/admin/testimonials"
        : demo.homepage.length
          ? "/admin/content"
          : logos.length && !demo.settings.includes("vat_note")
            ? "/admin/images"
            : "/admin/settings",
    },
  ];
  return { items, done: items.every((item) => item.done) };
}
