// The launch checklist on the overview (docs/architecture.md, "Dashboard"): what a new shop
// still shows customers from the demo seed or has not connected. Each item reads the same
// facts the rest of the server acts on (eftReady, the card mode, the panel's mode, the demo
// values the seed recorded), so "done" here means the shop really behaves that way.
import type { FastifyInstance } from "fastify";
import { demoContentLeft } from "@/server/db/seed";
import { loadBusiness } from "@/server/lib/business";
import type { LaunchChecklist, LaunchChecklistItem } from "@/shared/business-schemas";
import { eftReady } from "@/shared/constants";

/** The legal facts the public pages must show (ECT Act s43; POPIA's information officer). */
const LEGAL_FACTS: Record<string, string> = {
  business_legal_name: "registered name",
  business_address: "physical address",
  information_officer_name: "information officer",
  information_officer_email: "information officer's e-mail",
};

/** 'a', 'a and b', 'a, b and c'. */
function listed(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

export async function loadLaunchChecklist(app: FastifyInstance, cardMode: "ikhokha" | "sandbox" | "off"): Promise<LaunchChecklist> {
  const [business, demo] = await Promise.all([loadBusiness(app), demoContentLeft(app.db)]);
  const s = business.settings;
  const missingLegal = Object.entries(LEGAL_FACTS)
    .filter(([key]) => !s[key]?.trim())
    .map(([, words]) => words);
  const demoBranding = new Set(demo.branding);
  const panelMode = app.provisioning.panel.mode;
  const demoLeft = demo.testimonials.length + demo.homepage.length + (demo.settings.includes("vat_note") ? 1 : 0);

  const items: LaunchChecklistItem[] = [
    {
      id: "bank",
      label: "Bank details for EFT",
      done: eftReady(s),
      detail: eftReady(s)
        ? `${s.eft_bank_name}, account ${s.eft_account_number}`
        : "Customers are not offered EFT until the bank, account holder, account number and branch code are filled in.",
      href: "/admin/settings",
    },
    {
      id: "legal",
      label: "Legal facts on the public pages",
      done: missingLegal.length === 0,
      detail: missingLegal.length
        ? `The legal pages say "Available on request" for the ${listed(missingLegal)}. The ECT Act (s43) requires the address.`
        : "Registered name, address and information officer are shown.",
      href: "/admin/settings",
    },
    {
      id: "whatsapp",
      label: "Your WhatsApp number",
      done: Boolean(business.whatsappNumber) && !demoBranding.has("whatsapp_number"),
      detail:
        business.whatsappNumber && !demoBranding.has("whatsapp_number")
          ? "Orders and replies go to your number."
          : "Orders and trial requests still go to the demo number.",
      href: "/admin/branding",
    },
    {
      id: "support_email",
      label: "Your support e-mail",
      done: Boolean(business.supportEmail) && !demoBranding.has("support_email"),
      detail:
        business.supportEmail && !demoBranding.has("support_email")
          ? business.supportEmail
          : "The site and every message still show the demo address.",
      href: "/admin/branding",
    },
    {
      id: "payments",
      label: "Card payments",
      done: cardMode === "ikhokha",
      detail:
        cardMode === "ikhokha"
          ? "iKhokha is connected: card payments are real."
          : cardMode === "sandbox"
            ? "Card payments go to the TEST checkout. Set IKHOKHA_APP_ID and IKHOKHA_APP_SECRET on the server to take real payments."
            : "Card payments are off. Set IKHOKHA_APP_ID and IKHOKHA_APP_SECRET on the server to take them.",
      href: "/admin/payments",
    },
    {
      id: "panel",
      label: "IPTV panel connection",
      done: panelMode !== "sandbox",
      detail:
        panelMode === "xtream"
          ? "Lines are made on your panel through its reseller API."
          : panelMode === "manual"
            ? "Manual mode: the dashboard lists each line for you to make on the panel."
            : "Lines are made on the sandbox panel. Set PANEL_API_URL and PANEL_API_KEY (or PANEL_MODE=manual) on the server.",
      href: "/admin/panel",
    },
    {
      id: "demo_content",
      label: "Demo content replaced",
      done: demoLeft === 0,
      detail:
        demoLeft === 0
          ? "No demo reviews or texts are left."
          : `${demoLeft} demo ${demoLeft === 1 ? "item is" : "items are"} still shown: ${listed(
              [
                demo.testimonials.length ? `${demo.testimonials.length} seeded reviews` : "",
                demo.homepage.length ? "the rating line" : "",
                demo.settings.includes("vat_note") ? "the VAT note" : "",
              ].filter(Boolean),
            )}.`,
      href: demo.testimonials.length ? "/admin/testimonials" : demo.homepage.length ? "/admin/content" : "/admin/settings",
    },
  ];
  return { items, done: items.every((item) => item.done) };
}
