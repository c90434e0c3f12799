// The business facts the legal pages state (ECT Act s43, POPIA), taken only from branding and
// settings. A fact the operator has not filled in stays empty: the pages then say it is
// available on request rather than inventing one.
import type { SettingsMap } from "@/shared/api";
import { SUPPORT_HOURS } from "@/shared/constants";
import type { Branding } from "@/web/lib/queries/branding";

/** When the wording of these templates last changed. */
export const LEGAL_LAST_UPDATED = "2026-11-22";

export interface LegalFacts {
  companyName: string;
  legalName: string;
  registrationNumber: string;
  address: string;
  supportEmail: string;
  whatsappNumber: string;
  supportHours: string;
  officerName: string;
  officerEmail: string;
  /** true/false from prices_include_vat; null when the setting is missing or unclear */
  pricesIncludeVat: boolean | null;
  vatNote: string;
  freeTrialRules: string;
}

const clean = (value: string | undefined) => value?.trim() ?? "";

export function legalFacts(branding: Branding, settings: SettingsMap): LegalFacts {
  const vat = clean(settings.prices_include_vat).toLowerCase();
  return {
    companyName: branding.companyName,
    legalName: clean(settings.business_legal_name),
    registrationNumber: clean(settings.registration_number),
    address: clean(settings.business_address),
    supportEmail: branding.supportEmail,
    whatsappNumber: branding.whatsappNumber,
    supportHours: clean(settings.support_hours) || SUPPORT_HOURS,
    officerName: clean(settings.information_officer_name),
    officerEmail: clean(settings.information_officer_email),
    pricesIncludeVat: vat === "true" ? true : vat === "false" ? false : null,
    vatNote: clean(settings.vat_note),
    freeTrialRules: clean(settings.free_trial_rules),
  };
}
