// The panel's owner settings (shared/panel-settings.ts): the stream server URL that every
// subscriber link is built on, and how long panel reads are kept. Both are site_settings rows
// kept off the public settings (is_active false), read through the change-feed-invalidated cache.
//
// The stream URL in use, first found: the sandbox panel's own (its lines are test lines), the
// owner's setting, PANEL_STREAM_URL, the reseller API's host; else none, and manual tasks ask for
// it before a login goes out (a link without a server is one nobody can use).
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { SANDBOX_STREAM_URL } from "@/server/adapters/panel/sandbox";
import type { Db } from "@/server/db/client";
import { siteSettings } from "@/server/db/schema";
import { PANEL_SETTINGS, panelCacheMinutes, type StreamUrlSource } from "@/shared/panel-settings";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface PanelSettingsView {
  /** the URL subscribers' links are built on now ('' when there is none) */
  stream_url: string;
  stream_url_source: StreamUrlSource;
  /** the owner's own setting ('' when unset) */
  stream_url_setting: string;
  /** PANEL_STREAM_URL on the server ('' when unset): what an empty setting falls back to */
  stream_url_default: string;
  cache_minutes: number;
}

const DESCRIPTIONS: Record<string, string> = {
  [PANEL_SETTINGS.streamUrl]: "The stream server subscribers' apps connect to (http(s)://host[:port]).",
  [PANEL_SETTINGS.cacheMinutes]: "Minutes a read of the IPTV panel (packages, credits, lines) is kept.",
};

async function storedSettings(app: FastifyInstance): Promise<Record<string, string>> {
  return app.cache.get("panel-settings", ["site_settings"], async () => {
    const rows = await app.db
      .select({ key: siteSettings.key, value: siteSettings.value })
      .from(siteSettings)
      .where(inArray(siteSettings.key, Object.values(PANEL_SETTINGS)));
    return Object.fromEntries(rows.map((r) => [r.key, r.value ?? ""]));
  });
}

export async function loadPanelSettings(app: FastifyInstance): Promise<PanelSettingsView> {
  const stored = await storedSettings(app);
  const setting = (stored[PANEL_SETTINGS.streamUrl] ?? "").trim();
  const fallback = app.config.PANEL_STREAM_URL?.replace(/\/+$/, "") ?? "";
  const apiHost = app.config.PANEL_API_URL ? new URL(app.config.PANEL_API_URL).origin : "";
  const mode = app.provisioning.panel.mode;
  const [streamUrl, source]: [string, StreamUrlSource] =
    mode === "sandbox"
      ? [SANDBOX_STREAM_URL, "sandbox"]
      : setting
        ? [setting, "setting"]
        : fallback
          ? [fallback, "environment"]
          : mode === "xtream" && apiHost
            ? [apiHost, "panel"]
            : ["", "none"];
  return {
    stream_url: streamUrl,
    stream_url_source: source,
    stream_url_setting: setting,
    stream_url_default: fallback,
    cache_minutes: panelCacheMinutes(stored[PANEL_SETTINGS.cacheMinutes]),
  };
}

/** The URL subscriber links are built on now ('' when none is known). */
export async function currentStreamUrl(app: FastifyInstance): Promise<string> {
  return (await loadPanelSettings(app)).stream_url;
}

/** Write one panel setting in the caller's transaction (checked by the caller). */
export async function writePanelSetting(tx: Tx, key: string, value: string): Promise<void> {
  const [existing] = await tx.select({ id: siteSettings.id }).from(siteSettings).where(eq(siteSettings.key, key)).for("update");
  if (existing) {
    await tx.update(siteSettings).set({ value, updated_at: new Date() }).where(eq(siteSettings.id, existing.id));
  } else {
    await tx.insert(siteSettings).values({ key, value, description: DESCRIPTIONS[key] ?? "", is_active: false });
  }
}
