// The panel package a provisioning job asks for: the owner's mapping of our package, the trial
// package setting, and the bouquets chosen for it.
import { eq } from "drizzle-orm";
import type { PanelAdapter } from "@/server/adapters/panel/panel";
import { SANDBOX_PACKAGES } from "@/server/adapters/panel/sandbox";
import type { Db } from "@/server/db/client";
import { packages, panelPackageMap, siteSettings } from "@/server/db/schema";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { JobFailure } from "./provisioning-job";

export async function trialPackage(db: Db, panel: PanelAdapter): Promise<string> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, TRIAL_PACKAGE_SETTING));
  if (row?.value) return row.value;
  if (panel.mode === "sandbox") return "sbx-trial";
  throw new JobFailure("No panel package is chosen for free trials. Choose one on the IPTV panel page, then retry.", "NO_MAPPING");
}

/** The bouquets the owner chose for our package (bouquets_selected[]); empty: all of the panel package's. */
export async function bouquetsFor(db: Db, packageId: string | null): Promise<string[]> {
  if (!packageId) return [];
  const [row] = await db
    .select({ bouquets: panelPackageMap.bouquets })
    .from(panelPackageMap)
    .where(eq(panelPackageMap.package_id, packageId));
  return row?.bouquets ?? [];
}

export async function mappedPackage(db: Db, panel: PanelAdapter, packageId: string | null, name: string): Promise<string> {
  if (packageId) {
    const [row] = await db
      .select({ panel: panelPackageMap.panel_package_id })
      .from(panelPackageMap)
      .where(eq(panelPackageMap.package_id, packageId));
    if (row) return row.panel;
    // The sandbox panel has a package for each usual length: map by months.
    if (panel.mode === "sandbox") {
      const [pkg] = await db.select({ months: packages.duration_months }).from(packages).where(eq(packages.id, packageId));
      const found = SANDBOX_PACKAGES.find((p) => !p.is_trial && p.official_duration === (pkg?.months ?? 1));
      if (found) return found.id;
    }
  }
  throw new JobFailure(
    `No panel package is mapped to "${name || "this package"}". Map it on the IPTV panel page, then retry.`,
    "NO_MAPPING",
  );
}
