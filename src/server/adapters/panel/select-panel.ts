// The reseller API when PANEL_API_URL and PANEL_API_KEY are set, manual mode when
// PANEL_MODE=manual, else the sandbox panel (docs/architecture.md, "Integrations").
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { createManualPanel } from "./manual";
import type { PanelAdapter } from "./panel";
import { createSandboxPanel } from "./sandbox";
import { createXtreamPanel } from "./xtream";

export function selectPanel(config: Config, db: Db): PanelAdapter {
  if (config.PANEL_MODE === "manual") return createManualPanel();
  if (config.PANEL_API_URL && config.PANEL_API_KEY) {
    return createXtreamPanel({ apiUrl: config.PANEL_API_URL, apiKey: config.PANEL_API_KEY, timeoutMs: config.PANEL_TIMEOUT_MS });
  }
  return createSandboxPanel(db);
}
