// The owner's alerts (docs/architecture.md, "Owner alerts"): the settings that say where they go,
// which are on and when the daily digest comes, with the 400 message for each bad value. One
// rule for the dashboard's settings form and the server that saves and reads them.
import { isValidEmail } from "./contact";
import { toStoredWhatsApp } from "./whatsapp";

/**
 * The setting keys. The owner's own address and number start `secret_`, so the public settings
 * read (GET /api/settings) never shows them; the admin API lists and edits them like any other.
 */
export const OWNER_ALERT_SETTINGS = {
  email: "secret_owner_alert_email",
  whatsapp: "secret_owner_alert_whatsapp",
  digest: "owner_digest",
  digestHour: "owner_digest_hour",
} as const;

/** What the owner is alerted about, each once per cause; each can be switched off (on unless 'off'). */
export const OWNER_ALERT_CAUSES = {
  "panel-failed": { setting: "owner_alert_panel_failed", label: "A panel job failed" },
  "low-credits": { setting: "owner_alert_low_credits", label: "Panel credits fell below the warning" },
  "eft-order": { setting: "owner_alert_eft_order", label: "A new EFT order waits for your confirmation" },
  "outbox-failed": { setting: "owner_alert_outbox_failed", label: "A message could not be sent" },
  "unsellable-package": {
    setting: "owner_alert_unsellable_package",
    label: "A customer could not buy a package that has no panel package mapped",
  },
  "mac-held": { setting: "owner_alert_mac_held", label: "A customer gave a box MAC address another client holds" },
  "code-cap": { setting: "owner_alert_code_cap", label: "The day's WhatsApp codes reached their cap (codes go by e-mail)" },
  "privacy-request": { setting: "owner_alert_privacy_request", label: "A client asked for a correction or erasure of their data (POPIA)" },
  "renewal-failed": { setting: "owner_alert_renewal_failed", label: "An automatic renewal's card charge failed" },
  "payment-mismatch": {
    setting: "owner_alert_payment_mismatch",
    label: "A provider reported a payment for another amount than we priced (not captured)",
  },
  "payment-held": { setting: "owner_alert_payment_held", label: "A payment came from a suspended client's number (held for you)" },
} as const;

export type OwnerAlertCause = keyof typeof OWNER_ALERT_CAUSES;

/** The outbox kind of every alert and of the digest: one WhatsApp template (its {{body}}) serves them all. */
export const OWNER_ALERT_KIND = "owner-alert";

/** The digest's hour (SAST) when none is set. */
export const DEFAULT_DIGEST_HOUR = 7;

/** GET /api/admin/alerts-email: where the owner's notices and alerts go now, and where they go when no address is set. */
export interface AlertsEmailView {
  /** the alert e-mail set, else the first admin's ('' when neither) */
  email: string;
  /** the first admin's own address: the default */
  first_admin: string;
}

export const OWNER_ALERT_MESSAGES = {
  email: "Enter the e-mail address alerts go to, e.g. owner@example.co.za (or leave it empty)",
  whatsapp: "Enter a South African WhatsApp number, e.g. 082 123 4567 (or leave it empty)",
  onOff: "Choose on or off (or leave it empty for the default)",
  digestHour: "The digest hour must be a whole hour from 0 to 23 (South African time), e.g. 7 for 07:00",
} as const;

const ON_OFF_KEYS: ReadonlySet<string> = new Set([OWNER_ALERT_SETTINGS.digest, ...Object.values(OWNER_ALERT_CAUSES).map((c) => c.setting)]);

/** The 400 message for an owner-alert setting's value; null when it is fine (or not one of these). Empty is always fine. */
export function ownerAlertSettingProblem(key: string, value: string): string | null {
  const text = value.trim();
  if (text === "") return null;
  if (key === OWNER_ALERT_SETTINGS.email) return isValidEmail(text) ? null : OWNER_ALERT_MESSAGES.email;
  if (key === OWNER_ALERT_SETTINGS.whatsapp) return toStoredWhatsApp(text) ? null : OWNER_ALERT_MESSAGES.whatsapp;
  if (key === OWNER_ALERT_SETTINGS.digestHour) return /^\d{1,2}$/.test(text) && Number(text) <= 23 ? null : OWNER_ALERT_MESSAGES.digestHour;
  if (ON_OFF_KEYS.has(key)) return text === "on" || text === "off" ? null : OWNER_ALERT_MESSAGES.onOff;
  return null;
}

/** The value as it is stored: the WhatsApp number in its one form (27…), the e-mail trimmed; others unchanged. Call after the check. */
export function storedOwnerAlertValue(key: string, value: string): string {
  if (key === OWNER_ALERT_SETTINGS.whatsapp) return value.trim() === "" ? "" : (toStoredWhatsApp(value) ?? value);
  if (key === OWNER_ALERT_SETTINGS.email) return value.trim();
  return value;
}

export interface OwnerAlertPrefs {
  /** '' when not set */
  email: string;
  /** 27… or '' */
  whatsapp: string;
  on: Record<OwnerAlertCause, boolean>;
  digest: boolean;
  /** 0–23, SAST */
  digestHour: number;
}

/** The owner's choices as the settings hold them; an unreadable value reads as its default. */
export function ownerAlertPrefs(settings: Record<string, string | null | undefined>): OwnerAlertPrefs {
  const read = (key: string) => (settings[key] ?? "").trim();
  const email = read(OWNER_ALERT_SETTINGS.email);
  const hour = read(OWNER_ALERT_SETTINGS.digestHour);
  return {
    email: isValidEmail(email) ? email : "",
    whatsapp: toStoredWhatsApp(read(OWNER_ALERT_SETTINGS.whatsapp)) ?? "",
    on: Object.fromEntries(Object.entries(OWNER_ALERT_CAUSES).map(([cause, { setting }]) => [cause, read(setting) !== "off"])) as Record<
      OwnerAlertCause,
      boolean
    >,
    digest: read(OWNER_ALERT_SETTINGS.digest) === "on",
    digestHour: /^\d{1,2}$/.test(hour) && Number(hour) <= 23 ? Number(hour) : DEFAULT_DIGEST_HOUR,
  };
}
