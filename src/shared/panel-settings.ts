// The IPTV panel's two owner settings (issue 28): the stream server URL subscribers' apps connect
// to, and how long panel reads are kept. Pure: the panel settings endpoint and the generic settings
// write check values with these, the server reads them with the same defaults, and the dashboard's
// forms validate with the same schema.
import { z } from "zod";

export const PANEL_SETTINGS = {
  /** http(s)://host[:port] of the panel's customer-facing server; '' falls back to PANEL_STREAM_URL */
  streamUrl: "panel_stream_url",
  /** minutes a panel read (packages, user_info, get_lines) is kept, 1-60 */
  cacheMinutes: "panel_cache_minutes",
} as const;

export const PANEL_CACHE_MINUTES = { default: 5, min: 1, max: 60 } as const;

export const STREAM_URL_MESSAGE = "Enter the stream server as http://host or https://host:port (no path), as your panel shows it";
export const CACHE_MINUTES_MESSAGE = `Panel reads are kept for a whole number of minutes from ${PANEL_CACHE_MINUTES.min} to ${PANEL_CACHE_MINUTES.max}`;

// A host name (labels of letters, digits and hyphens), an IPv4 address or a bracketed IPv6 one.
const STREAM_URL_PATTERN =
  /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i;

/** The URL as it is stored (lower-case scheme and host, no trailing slash), or null when it is not http(s)://host[:port]. */
export function normaliseStreamUrl(value: string): string | null {
  const text = value.trim();
  const match = STREAM_URL_PATTERN.exec(text);
  if (!match) return null;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  try {
    const url = new URL(text);
    // the URL parser's own reading: the same scheme, host and port, nothing else
    return `${url.protocol}//${url.host}${port !== undefined && !url.port ? `:${port}` : ""}`;
  } catch {
    return null;
  }
}

const wholeMinutes = (text: string) =>
  /^\d{1,3}$/.test(text) && Number(text) >= PANEL_CACHE_MINUTES.min && Number(text) <= PANEL_CACHE_MINUTES.max;

/** The 400 message for a panel setting's value, or null when it is fine (or not a panel setting). */
export function panelSettingProblem(key: string, value: string): string | null {
  const text = value.trim();
  switch (key) {
    case PANEL_SETTINGS.streamUrl:
      return text === "" || normaliseStreamUrl(text) ? null : STREAM_URL_MESSAGE;
    case PANEL_SETTINGS.cacheMinutes:
      return text === "" || wholeMinutes(text) ? null : CACHE_MINUTES_MESSAGE;
    default:
      return null;
  }
}

/** Minutes a panel read is kept, as the setting says; missing or unreadable is the default. */
export function panelCacheMinutes(value: string | null | undefined): number {
  const text = (value ?? "").trim();
  return wholeMinutes(text) ? Number(text) : PANEL_CACHE_MINUTES.default;
}

/** A stream URL field: '' clears it (the server's PANEL_STREAM_URL applies again), else http(s)://host[:port]. */
export const streamUrlField = z
  .string()
  .trim()
  .max(300, STREAM_URL_MESSAGE)
  .refine((text) => text === "" || normaliseStreamUrl(text) !== null, STREAM_URL_MESSAGE)
  .transform((text) => (text === "" ? "" : (normaliseStreamUrl(text) as string)));

/** PUT /api/admin/panel/settings: either or both. */
export const panelSettingsSchema = z.object({
  stream_url: streamUrlField.optional(),
  cache_minutes: z.coerce
    .number({ error: CACHE_MINUTES_MESSAGE })
    .int(CACHE_MINUTES_MESSAGE)
    .min(PANEL_CACHE_MINUTES.min, CACHE_MINUTES_MESSAGE)
    .max(PANEL_CACHE_MINUTES.max, CACHE_MINUTES_MESSAGE)
    .optional(),
});
export type PanelSettings = z.output<typeof panelSettingsSchema>;

/** Where the stream URL the server uses comes from. */
export type StreamUrlSource = "setting" | "environment" | "panel" | "sandbox" | "none";
