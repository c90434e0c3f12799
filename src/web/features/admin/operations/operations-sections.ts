// Operations: content requests, notices, system status, broadcasts, message templates, outbox, knowledge base, releases, audit log.
import { Activity, BookOpen, Film, History, Megaphone, MessageSquareText, Radio, Rocket, Send, ShieldCheck } from "lucide-react";
import type { AdminSection } from "../sections";

export const operationsSections: AdminSection[] = [
  {
    // POPIA s24: clients' correction and erasure requests, with their due dates (issue 46 item 7)
    path: "privacy-requests",
    label: "Privacy requests",
    icon: ShieldCheck,
    group: "operations",
    load: () => import("./privacy-requests/privacy-requests-section").then((m) => m.PrivacyRequestsSection),
  },
  {
    path: "content-requests",
    label: "Content requests",
    icon: Film,
    group: "operations",
    load: () => import("./content-requests/content-requests-section").then((m) => m.ContentRequestsSection),
  },
  {
    path: "notices",
    label: "Notices",
    icon: Megaphone,
    group: "operations",
    load: () => import("./notices/notices-section").then((m) => m.NoticesSection),
  },
  {
    path: "status",
    label: "System status",
    icon: Activity,
    group: "operations",
    load: () => import("./status/status-section").then((m) => m.StatusSection),
  },
  {
    path: "broadcasts",
    label: "Broadcasts",
    icon: Radio,
    group: "operations",
    load: () => import("./broadcasts/broadcasts-section").then((m) => m.BroadcastsSection),
  },
  {
    path: "message-templates",
    label: "Message templates",
    icon: MessageSquareText,
    group: "operations",
    load: () => import("./message-templates/message-templates-section").then((m) => m.MessageTemplatesSection),
  },
  {
    path: "outbox",
    label: "Outbox",
    icon: Send,
    group: "operations",
    load: () => import("./outbox/outbox-section").then((m) => m.OutboxSection),
  },
  {
    path: "kb",
    label: "Knowledge base",
    icon: BookOpen,
    group: "operations",
    load: () => import("./kb/kb-section").then((m) => m.KbSection),
  },
  {
    path: "releases",
    label: "Release notes",
    icon: Rocket,
    group: "operations",
    load: () => import("./releases/releases-section").then((m) => m.ReleasesSection),
  },
  {
    path: "audit",
    label: "Audit log",
    icon: History,
    group: "operations",
    load: () => import("./audit/audit-section").then((m) => m.AuditSection),
  },
];
