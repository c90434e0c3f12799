// Which of our packages a line can be made for (issue 48 item 2): a payment for a package the
// panel cannot make a line on takes the customer's money for nothing. With a panel that makes
// lines by itself, a package needs a panel package: the owner's mapping, or for the sandbox panel
// its package of the same length (as the provisioning worker chooses). Manual mode makes every
// line by hand, so every package can be sold. The storefront shows the others as not available
// (catalogue), a payment for one is a 409 in the customer's words (payments), and the owner is
// told which package a customer could not buy (owner-alerts) and sees it on the launch checklist.
import { and, eq, isNull } from "drizzle-orm";
import type { PanelMode } from "@/server/adapters/panel/panel";
import { SANDBOX_PACKAGES } from "@/server/adapters/panel/sandbox";
import type { Db } from "@/server/db/client";
import { packages, panelPackageMap } from "@/server/db/schema";

export const PACKAGE_UNAVAILABLE_MESSAGE = "This package is not available yet — please choose another or contact us.";

/** The active packages no line can be made for now: the ids, with their names for the owner. */
export async function unavailablePackages(db: Pick<Db, "select">, mode: PanelMode): Promise<Map<string, string>> {
  if (mode === "manual") return new Map();
  const unmapped = await db
    .select({ id: packages.id, name: packages.name, months: packages.duration_months })
    .from(packages)
    .leftJoin(panelPackageMap, eq(panelPackageMap.package_id, packages.id))
    .where(and(eq(packages.is_active, true), isNull(panelPackageMap.package_id)));
  const lengths = new Set(SANDBOX_PACKAGES.filter((p) => !p.is_trial).map((p) => p.official_duration));
  return new Map(unmapped.filter((p) => mode !== "sandbox" || !lengths.has(p.months)).map((p) => [p.id, p.name]));
}
