// Account: the signed-in admin's password, the other admins, and backups of the shop's data.
import { DatabaseBackup, KeyRound, ShieldCheck } from "lucide-react";
import type { AdminSection } from "../sections";

export const accountSections: AdminSection[] = [
  {
    path: "account",
    label: "My account",
    icon: KeyRound,
    group: "account",
    load: () => import("./my-account-section").then((m) => m.MyAccountSection),
  },
  {
    path: "admins",
    label: "Admins",
    icon: ShieldCheck,
    group: "account",
    load: () => import("./admins-section").then((m) => m.AdminsSection),
  },
  {
    path: "backups",
    label: "Backups",
    icon: DatabaseBackup,
    group: "account",
    load: () => import("./backups-section").then((m) => m.BackupsSection),
  },
];
