import type { Package } from "@/shared/api";
import { findSpecial } from "@/shared/pricing";
import type { AdminSpecial } from "../api/types";

/** The package this special lowers the price of on the pricing page (spec §4 matching), if any. */
export function matchedPackage(special: Pick<AdminSpecial, "package_name" | "original_price" | "special_price">, packages: Package[]) {
  return packages.find((p) => findSpecial(p, [special]) !== null) ?? null;
}
