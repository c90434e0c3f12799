// Instant free trials (issue 27): the settings that govern them, and the shapes the storefront
// and the trials endpoints share. Pure: the server checks settings with these where they are
// saved, reads them with the same defaults, and the browser validates the code with the same schema.
import { z } from "zod";
import { verificationCodeSchema } from "./schemas";

// ---- settings ------------------------------------------------------------------------------

export const TRIAL_MODES = ["instant", "approve"] as const;
export type TrialMode = (typeof TRIAL_MODES)[number];

export const TRIAL_SETTINGS = {
  /** 'instant' (the code starts the trial and the panel makes the line) or 'approve' (the owner converts the lead) */
  mode: "trial_mode",
  /** instant trials a day from one network (/24 IPv4, /48 IPv6) */
  perNetwork: "trial_network_daily_limit",
  /** instant trials a day for the whole shop */
  dailyCap: "trial_daily_cap",
  /** 'on' (default) refuses disposable e-mail addresses; 'off' lets them through */
  disposable: "trial_block_disposable_email",
} as const;

export const TRIAL_LIMIT_DEFAULTS = { perNetwork: 2, dailyCap: 50 } as const;
const LIMIT_RANGE = { perNetwork: { min: 1, max: 1000 }, dailyCap: { min: 1, max: 100_000 } } as const;

export const TRIAL_SETTING_MESSAGES = {
  mode: "Trial mode must be instant or approve (or empty for the default: instant when the panel and its trial package are set)",
  perNetwork: `Trials per network a day must be a whole number from ${LIMIT_RANGE.perNetwork.min} to ${LIMIT_RANGE.perNetwork.max}`,
  dailyCap: `Trials a day must be a whole number from ${LIMIT_RANGE.dailyCap.min} to ${LIMIT_RANGE.dailyCap.max}`,
  disposable: "Blocking throwaway e-mail addresses must be on or off",
} as const;

const whole = (value: string, range: { min: number; max: number }) =>
  /^\d{1,6}$/.test(value) && Number(value) >= range.min && Number(value) <= range.max;

/** The 400 message for a trial setting's value, or null when it is fine (or not a trial setting). */
export function trialSettingProblem(key: string, value: string): string | null {
  const text = value.trim();
  switch (key) {
    case TRIAL_SETTINGS.mode:
      return text === "" || (TRIAL_MODES as readonly string[]).includes(text) ? null : TRIAL_SETTING_MESSAGES.mode;
    // empty: back to the default the card shows ("Not set: 2, the default"), as trialLimits reads it
    case TRIAL_SETTINGS.perNetwork:
      return text === "" || whole(text, LIMIT_RANGE.perNetwork) ? null : TRIAL_SETTING_MESSAGES.perNetwork;
    case TRIAL_SETTINGS.dailyCap:
      return text === "" || whole(text, LIMIT_RANGE.dailyCap) ? null : TRIAL_SETTING_MESSAGES.dailyCap;
    case TRIAL_SETTINGS.disposable:
      return text === "on" || text === "off" ? null : TRIAL_SETTING_MESSAGES.disposable;
    default:
      return null;
  }
}

export interface TrialLimits {
  perNetwork: number;
  dailyCap: number;
  blockDisposable: boolean;
}

/** The limits as the settings set them; a missing or unreadable value is its default. */
export function trialLimits(settings: Record<string, string | null | undefined>): TrialLimits {
  const read = (key: string, fallback: number, range: { min: number; max: number }) => {
    const text = (settings[key] ?? "").trim();
    return whole(text, range) ? Number(text) : fallback;
  };
  return {
    perNetwork: read(TRIAL_SETTINGS.perNetwork, TRIAL_LIMIT_DEFAULTS.perNetwork, LIMIT_RANGE.perNetwork),
    dailyCap: read(TRIAL_SETTINGS.dailyCap, TRIAL_LIMIT_DEFAULTS.dailyCap, LIMIT_RANGE.dailyCap),
    blockDisposable: (settings[TRIAL_SETTINGS.disposable] ?? "").trim() !== "off",
  };
}

/** The mode set explicitly, or null for the default (which depends on the panel). */
export function explicitTrialMode(settings: Record<string, string | null | undefined>): TrialMode | null {
  const text = (settings[TRIAL_SETTINGS.mode] ?? "").trim();
  return (TRIAL_MODES as readonly string[]).includes(text) ? (text as TrialMode) : null;
}

// ---- the endpoints -------------------------------------------------------------------------

export const trialVerifySchema = z.object({ code: verificationCodeSchema });
export type TrialVerify = z.output<typeof trialVerifySchema>;
export type TrialVerifyInput = z.input<typeof trialVerifySchema>;

/** The order's answer in instant mode (202): the trial waiting for its code, and where the code went. */
export const trialStartedSchema = z.object({
  trialId: z.string(),
  /** where the code went ('' when none could: they prove the number by writing to us) */
  sentTo: z.string(),
  /** wa.me link that writes a code to the shop from their number (issue 41), when the webhook is set up */
  waLink: z.string().nullable().optional(),
});
export type TrialStarted = z.infer<typeof trialStartedSchema>;

/** The line's details, once the panel has made it. */
export const trialLineSchema = z.object({
  username: z.string(),
  password: z.string(),
  server_url: z.string(),
  m3u_url: z.string(),
  expires_at: z.string().nullable(),
});
export type TrialLine = z.infer<typeof trialLineSchema>;

export const TRIAL_STATES = ["awaiting-code", "provisioning", "ready", "failed"] as const;
export type TrialState = (typeof TRIAL_STATES)[number];

/** GET /api/trials/:id and the verify's 201. */
export const trialViewSchema = z.object({
  id: z.string(),
  state: z.enum(TRIAL_STATES),
  sentTo: z.string(),
  /** when the trial's time ends (once started) */
  endsAt: z.string().nullable(),
  line: trialLineSchema.nullable(),
  /** what the customer should know when the panel could not make the line yet */
  message: z.string(),
});
export type TrialView = z.infer<typeof trialViewSchema>;

/** One stretch of GET /api/admin/trials/summary: trials asked for, started, and of those started, converted (paid since). */
export interface TrialWindowSummary {
  asked: number;
  started: number;
  /** trials started in the stretch whose client has paid since the trial began (a payment not refunded in full) */
  converted: number;
  /** converted / started, 0..1; null when none started */
  conversionRate: number | null;
  /** refusals counted for the owner, by reason */
  refused: Record<string, number>;
}

/** GET /api/admin/trials/summary: the overview's trial numbers (today, and the 7 days up to today). */
export interface TrialSummary {
  mode: TrialMode;
  limits: TrialLimits;
  today: TrialWindowSummary;
  last7Days: TrialWindowSummary;
}
