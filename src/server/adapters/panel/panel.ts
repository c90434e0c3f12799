// What provisioning needs from an IPTV panel (docs/architecture.md, "Integrations"): the
// reseller's credits and packages, and lines to create, extend, enable and disable. Three
// implementations: the Xtream-family reseller API (xtream.ts), a sandbox panel of ours kept in
// the database (sandbox.ts), and manual mode, where each step becomes a task for the owner.

import type { LineType } from "@/shared/device-lines";

export type PanelMode = "xtream" | "sandbox" | "manual";
export type { LineType };

export interface PanelPackage {
  id: string;
  name: string;
  is_trial: boolean;
  is_official: boolean;
  official_credits: number;
  trial_credits: number;
  /** e.g. 3 months: {duration: 3, unit: "months"} */
  official_duration: number;
  official_duration_in: string;
  trial_duration: number;
  trial_duration_in: string;
  max_connections: number;
  /** the bouquet ids the package gives (a line may get a subset: bouquets_selected[]) */
  bouquets: string[];
}

export interface PanelLine {
  id: string;
  username: string;
  password: string;
  /** when the panel will stop the line; null for a line that never expires */
  expires_at: Date | null;
  enabled: boolean;
  max_connections: number;
  /** the reseller's notes on the line, where a create's lookup key is written too */
  notes?: string;
  /** a device line (mag | enigma2): its id is the device's (mag_id / device_id), keyed by `mac` */
  type?: LineType;
  mac?: string;
}

export interface CreateLineInput {
  package: string;
  trial: boolean;
  /** shown on the panel beside the line: the client's name and number */
  contact: string;
  notes: string;
  /**
   * The login derived from the provisioning job's key (the same on every attempt), so a create
   * whose answer was lost can be found again with findLine instead of being sent twice.
   */
  username?: string;
  password?: string;
  /** a MAG or Enigma2 box's line (create_mag / create_enigma): keyed by its MAC, no login of ours */
  type?: LineType;
  mac?: string;
  /** a subset of the package's bouquets; absent or empty: all of them */
  bouquets?: string[];
  /** a sub-reseller's panel id (member_id): the line is theirs, the calling reseller pays */
  member_id?: string;
}

/** A sub-reseller: a reseller on the panel owned by ours (get_users, create_user). */
export interface PanelReseller {
  id: string;
  username: string;
  email: string;
  credits: number;
  enabled: boolean;
  notes: string;
}

export interface CreateUserInput {
  username: string;
  password: string;
  email: string;
  /** the member group the panel lets our reseller give sub-resellers (the setting reseller_member_group_id) */
  member_group_id: string;
  notes: string;
}

export interface PanelAdapter {
  readonly mode: PanelMode;
  /** The reseller's balance. The credit ledger reads it just before and after each costing call: never from a cache. */
  userInfo(): Promise<{ credits: number | null }>;
  packages(): Promise<PanelPackage[]>;
  lines(): Promise<PanelLine[]>;
  /**
   * The line whose username is `key`, or whose notes carry it (a panel that makes up its own
   * usernames still keeps our notes); null when there is none. Read fresh from the panel every
   * time, never from a cache: a stale "not there" would let a create be sent twice.
   */
  findLine(key: string, type?: LineType): Promise<PanelLine | null>;
  createLine(input: CreateLineInput): Promise<PanelLine>;
  /** charges the package again and adds its duration (to the expiry, or to now once lapsed) */
  editLine(input: { id: string; package: string; type?: LineType; bouquets?: string[] }): Promise<PanelLine>;
  enableLine(id: string, type?: LineType): Promise<void>;
  disableLine(id: string, type?: LineType): Promise<void>;
  /** a box's line moved to another MAC (edit_mag / edit_enigma with `mac`: the old MAC is freed); no charge */
  changeMac(input: { id: string; type: "mag" | "enigma2"; mac: string }): Promise<void>;
  /** the line's ISP lock reset (edit with isp_clear), so it plays from the subscriber's new network; no charge */
  clearIspLock(id: string, type?: LineType): Promise<void>;
  // Sub-resellers (issue 45). Every adapter of ours has them (manual mode refuses with
  // SUB_RESELLERS_NEED_API); optional so a stand-in panel in a test need not.
  /** makes a reseller owned by ours (create_user). No idempotency key: look the username up in users() before sending again. */
  createUser?(input: CreateUserInput): Promise<PanelReseller>;
  /** moves credits from our reseller to a sub-reseller (negative: back); the panel refuses either side going below 0 */
  adjustCredits?(input: { id: string; credits: number; note: string }): Promise<void>;
  /** our sub-resellers with their balances, read fresh (get_users) */
  users?(): Promise<PanelReseller[]>;
}

/** What manual mode answers for sub-resellers: they need a panel we can drive. */
export const SUB_RESELLERS_NEED_API = "Sub-resellers need a panel with API access.";

/**
 * The panel refused or could not be reached. `status` is the panel's STATUS_* word (or
 * NETWORK / TIMEOUT / BAD_ANSWER); `retryable` says whether sending the same call later may
 * work; `answer` is the raw answer, secrets masked, kept for the owner.
 */
export class PanelError extends Error {
  constructor(
    message: string,
    readonly status: string,
    readonly retryable: boolean,
    readonly answer: string = "",
  ) {
    super(message);
    this.name = "PanelError";
  }
}

/**
 * Failures after which a write may still have been done by the panel: it timed out, the
 * connection broke after it was sent, or the panel answered 5xx (which some panels do after
 * doing the work). A create that failed so is looked up (findLine) before it is sent again.
 */
export const MAYBE_DONE_STATUSES: ReadonlySet<string> = new Set(["TIMEOUT", "NETWORK", "HTTP_5XX"]);

/** Manual mode: the owner does this step on the panel and pastes the result. */
export class ManualStep extends Error {
  constructor(readonly instruction: string) {
    super(instruction);
    this.name = "ManualStep";
  }
}

/** The panel's words, in the owner's. Anything not listed is a failure with the raw answer kept. */
export const PANEL_STATUS_MESSAGES: Record<string, { message: string; retryable: boolean }> = {
  STATUS_INSUFFICIENT_CREDITS: {
    message: "The panel says there are not enough credits. Top up your reseller credits, then retry.",
    retryable: false,
  },
  STATUS_NO_TRIALS: { message: "The panel's trial allowance is used up for now. Try again later or give a paid line.", retryable: false },
  STATUS_INVALID_PACKAGE: { message: "The panel does not know that package. Check the package mapping.", retryable: false },
  STATUS_EXISTS_USERNAME: { message: "That username already exists on the panel.", retryable: false },
  STATUS_INVALID_USERNAME: { message: "The panel refused the username.", retryable: false },
  STATUS_INVALID_PASSWORD: { message: "The panel refused the password.", retryable: false },
  STATUS_INVALID_TYPE: { message: "The panel refused the request type.", retryable: false },
  STATUS_EXISTS_MAC: {
    message: "That MAC address already has a line on the panel. Check the MAC with the customer, or free it on the panel, then retry.",
    retryable: false,
  },
  STATUS_INVALID_MAC: { message: "The panel refused the MAC address. Check it with the customer.", retryable: false },
  // Some panels refuse a second extension while one is running: safe to send again later.
  STATUS_FAILURE: { message: "The panel could not do it just now; it will be tried again.", retryable: true },
};

/** The subscriber's URLs for a line (INTEGRATIONS: player API, M3U playlist, EPG). */
export function subscriberUrls(streamUrl: string, line: { username: string; password: string }) {
  const base = streamUrl.replace(/\/+$/, "");
  const auth = `username=${encodeURIComponent(line.username)}&password=${encodeURIComponent(line.password)}`;
  return {
    server_url: base,
    m3u_url: `${base}/get.php?${auth}&type=m3u_plus&output=ts`,
    epg_url: `${base}/xmltv.php?${auth}`,
  };
}
