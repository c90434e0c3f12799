// The admin dashboard's section registry: every page of the sidebar (except the overview) is one
// entry here. The wrapper builds its grouped navigation from this list, and /admin/:section and
// /admin/:section/:subsection render the entry whose `path` matches :section (the component reads
// :subsection itself with useParams()). Each `load` is a dynamic import, so a section's code is
// its own lazy chunk that the public site never fetches.
//
// Adding a section: append one entry to its group's list (sales below; catalogue, operations and
// account each in their folder's *-sections.ts), e.g.
//   { path: "packages", label: "Packages", icon: Package, group: "catalogue",
//     load: () => import("./catalogue/packages-section").then((m) => m.PackagesSection) },
// Paths are single URL segments, unique across the registry ("client" and "login" are taken).

import type { LucideIcon } from "lucide-react";
import { CreditCard, Handshake, Inbox, ReceiptText, Server, Users } from "lucide-react";
import type { ComponentType } from "react";
import { accountSections } from "./account/account-sections";
import { catalogueSections } from "./catalogue/catalogue-sections";
import { InboxNavIcon } from "./inbox/inbox-nav-icon";
import { operationsSections } from "./operations/operations-sections";

export type AdminSectionGroup = "sales" | "catalogue" | "operations" | "account";

export interface AdminSection {
  /** the URL segment after /admin/ (e.g. "leads" → /admin/leads, /admin/leads/:subsection) */
  path: string;
  /** the sidebar's link text and the page's tab title */
  label: string;
  icon: LucideIcon;
  group: AdminSectionGroup;
  /** the section's page component, loaded on first visit */
  load: () => Promise<ComponentType>;
}

/** Sidebar group headings, in the order they are shown (Overview sits above them all). */
export const adminSectionGroups: { id: AdminSectionGroup; label: string }[] = [
  { id: "sales", label: "Sales" },
  { id: "catalogue", label: "Catalogue" },
  { id: "operations", label: "Operations" },
  { id: "account", label: "Account" },
];

const sales: AdminSection[] = [
  {
    path: "leads",
    label: "Leads",
    icon: Inbox,
    group: "sales",
    load: () => import("./leads/leads-section").then((m) => m.LeadsSection),
  },
  {
    // WhatsApp conversations (issue 26); the icon carries the unread count
    path: "inbox",
    label: "Inbox",
    icon: InboxNavIcon,
    group: "sales",
    load: () => import("./inbox/inbox-section").then((m) => m.InboxSection),
  },
  {
    path: "clients",
    label: "Clients",
    icon: Users,
    group: "sales",
    load: () => import("./clients/clients-section").then((m) => m.ClientsSection),
  },
  {
    path: "payments",
    label: "Payments",
    icon: CreditCard,
    group: "sales",
    load: () => import("./payments/payments-section").then((m) => m.PaymentsSection),
  },
  {
    path: "billing",
    label: "Billing",
    icon: ReceiptText,
    group: "sales",
    load: () => import("./billing/billing-section").then((m) => m.BillingSection),
  },
  {
    path: "panel",
    label: "IPTV panel",
    icon: Server,
    group: "sales",
    load: () => import("./panel/panel-section").then((m) => m.PanelSection),
  },
  {
    // sub-resellers (issue 45): partners who buy credits from the owner
    path: "resellers",
    label: "Partners",
    icon: Handshake,
    group: "sales",
    load: () => import("./resellers/resellers-section").then((m) => m.ResellersSection),
  },
];

export const adminSections: AdminSection[] = [...sales, ...catalogueSections, ...operationsSections, ...accountSections];

/** The section at /admin/:section, if any. */
export function findAdminSection(path: string): AdminSection | undefined {
  return adminSections.find((s) => s.path === path);
}
