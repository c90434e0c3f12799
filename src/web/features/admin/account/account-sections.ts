// Account: the signed-in admin's password, and the other admins.
import type { AdminSection } from "../sections";

export const accountSections: AdminSection[] = [];
