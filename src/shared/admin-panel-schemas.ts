// The IPTV panel in the business dashboard: the package mapping, a manual task's completion, a
// drift's fix, and what the panel and provisioning routes answer.
import { z } from "zod";
import { saDay } from "./dates";
import { type StreamUrlSource, streamUrlField } from "./panel-settings";
import { blankToUndefined } from "./schema-parts";

// ---- the IPTV panel ---------------------------------------------------------------------------

export const PANEL_USERNAME_MESSAGE = "Paste the line's username from your panel";
export const PANEL_PASSWORD_MESSAGE = "Paste the line's password from your panel";
const panelPackageChoice = z.union([z.string().trim().min(1, "Choose a panel package").max(100), z.literal(""), z.null()]);

/** PUT /api/admin/panel/mapping: our package id → the panel's package id ('' unmaps), and the trial package. */
export const panelMappingSchema = z.object({
  packages: z.record(z.uuid({ error: "Not a package id" }), panelPackageChoice).default({}),
  trial: panelPackageChoice.optional(),
  /** our package id → the panel package's bouquet ids it includes ([]: all of them) */
  bouquets: z
    .record(
      z.uuid({ error: "Not a package id" }),
      z.array(z.string().trim().min(1).max(20), { error: "Choose bouquets from the list" }).max(500),
    )
    .optional(),
});

export const PANEL_EXPIRY_MESSAGE = "Enter the line's end date as the panel shows it (YYYY-MM-DD), today or later";
export const PANEL_STREAM_URL_NEEDED = "Enter the stream server your customers' apps connect to, so their links work";

/** A real calendar day 'YYYY-MM-DD', today or later in South Africa. */
const lineEndDay = z
  .string()
  .trim()
  .refine((day) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
    if (!m) return false;
    const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return date.toISOString().slice(0, 10) === day && Number(m[1]) <= 2100 && day >= saDay(new Date());
  }, PANEL_EXPIRY_MESSAGE);

/**
 * POST /api/admin/provisioning/:id/complete: what the owner pastes after doing a step on the
 * panel. For a new line: its username and password, optionally the panel's line id and the end
 * date the panel shows (else the paid term's end), and the stream server URL when none is set yet
 * (it is saved as the panel's setting).
 */
export const panelTaskCompleteSchema = z.object({
  username: z.string().trim().max(200).optional(),
  password: z.string().trim().max(200).optional(),
  line_id: z.string().trim().max(100).optional(),
  expires_on: z.preprocess(blankToUndefined, lineEndDay.optional()),
  stream_url: z.preprocess(blankToUndefined, streamUrlField.optional()),
});

/** The panel_runway_alert_days setting: days before the credits run out that the owner is e-mailed. */
export const RUNWAY_ALERT_DAYS_MESSAGE = "Enter the alert days as a whole number from 0 to 99, e.g. 7";

/** POST /api/admin/panel/drift/:id/fix: ours to the panel, or the panel's taken as ours. */
export const panelDriftFixSchema = z.object({
  direction: z.enum(["push", "accept"], { error: "Choose push (ours to the panel) or accept (the panel's as ours)" }),
});
export type PanelDriftFix = z.output<typeof panelDriftFixSchema>;

/** GET /api/admin/panel/drift → {data}: one difference the panel sync found, with both sides' values. */
export interface PanelDriftView {
  id: string;
  kind: "expiry" | "enabled" | "max_connections" | "missing_on_panel" | "missing_here";
  client_id: string | null;
  client_full_name: string | null;
  panel_line_id: string;
  /** our side and the panel's, as text: an ISO date (expiry), 'true'/'false' (enabled, missing), a number */
  ours: string;
  panel: string;
  /** the difference in the owner's words */
  description: string;
  status: "open" | "fixed" | "resolved";
  direction: "push" | "accept" | null;
  can_push: boolean;
  /**
   * What a push spends, in the owner's words, asked before it is sent: "Extends the line by one
   * 3 Months Official package: 3 credits. The panel will end it on 2 Mar 2027." Null when a
   * push costs nothing (switching on or off) or cannot be done.
   */
  push_cost: { credits: number | null; words: string } | null;
  can_accept: boolean;
  found_at: string;
  fixed_at: string | null;
  fixed_by: string;
}

/** GET /api/admin/panel/drift → the page asked for, the total, and how many open differences there are of each kind. */
export interface PanelDriftList {
  data: PanelDriftView[];
  total: number;
  counts: Record<PanelDriftView["kind"], number>;
}

/** The last comparison of the panel's lines with ours (the panel page's "last check"), as the server keeps it. */
export interface PanelCheckView {
  /** when it ran (ISO) */
  at: string;
  ok: boolean;
  /** why it failed, in the owner's words ('' when it did not) */
  error: string;
  /** our clients' lines compared, and how many differ */
  checked: number;
  flagged: number;
  /** lines the panel listed (logins, MAG boxes and Enigma2 receivers) */
  lines_read: number;
  /** how many checks in a row have failed (0 after one that worked) */
  failures_in_row: number;
  /** how long reading and comparing took */
  took_ms: number;
}

/** GET /api/admin/panel */
export interface AdminPanelView {
  mode: "xtream" | "sandbox" | "manual";
  connected: boolean;
  credits: number | null;
  low_credits: boolean;
  credit_warning: number;
  packages: {
    id: string;
    name: string;
    is_trial: boolean;
    official_duration: number;
    official_duration_in: string;
    trial_duration: number;
    trial_duration_in: string;
    official_credits: number;
    max_connections: number;
    /** the panel package's bouquet ids */
    bouquets?: string[];
  }[];
  /** our package id → panel package id */
  mapping: Record<string, string>;
  /** our package id → the bouquets it includes ([] or absent: all of the panel package's) */
  bouquets?: Record<string, string[]>;
  trial_package_id: string | null;
  error: string | null;
  /** the URL subscribers' M3U/EPG links are built on now ('' when none is set) and where it comes from */
  stream_url: string;
  stream_url_source: StreamUrlSource;
  /** the owner's setting ('' when unset) and PANEL_STREAM_URL, what an empty setting falls back to */
  stream_url_setting: string;
  stream_url_default: string;
  /** minutes a panel read is kept (the panel_cache_minutes setting, 1-60, default 5) */
  cache_minutes: number;
  /** when credits and packages were read from the panel (ISO); null when it has not answered */
  read_at: string | null;
  /** how long the credits last against the renewals due in the next 30 days */
  runway?: { runs_out_on: string | null; renewals_due_30d: number; credits_needed_30d: number | null; credits_known: boolean };
  /** the last comparison with the panel's lines; null before the first */
  last_check?: PanelCheckView | null;
  /** the credit ledger's totals: what the panel took in 30 days, its last recorded balance, rows off the package's price, rows with a balance or price not read */
  ledger?: { entries_30d: number; charged_30d: number; last_balance: number | null; mismatched: number; unknown: number };
}

/** GET /api/admin/provisioning → {data} */
export interface ProvisioningJob {
  id: string;
  client_id: string;
  client_full_name: string;
  client_username: string;
  action: "create_line" | "extend_line" | "enable_line" | "disable_line" | "change_mac" | "isp_clear";
  package_name: string;
  trial: boolean;
  status: "pending" | "running" | "done" | "failed" | "task";
  attempts: number;
  next_attempt_at: string;
  /** the panel's STATUS_* word, or NETWORK, TIMEOUT, BAD_ANSWER, NO_MAPPING, INTERRUPTED */
  error_status: string;
  last_error: string;
  /** the panel's raw answer, secrets masked */
  panel_answer: string;
  /** manual mode: what the owner is asked to do */
  instruction: string;
  /** completing it needs the line's username and password (it makes the client's line) */
  needs_login: boolean;
  done_at: string | null;
  created_at: string;
}
