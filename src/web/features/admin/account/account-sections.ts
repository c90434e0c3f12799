// Account: the signed-in admin's password, and the other admins.
import { KeyRound, ShieldCheck } from "lucide-react";
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
];
