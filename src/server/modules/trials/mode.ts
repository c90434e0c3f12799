// Which way a free-trial order goes (issue 27): 'instant' — a code to the customer, and the
// code starts the trial and queues the panel's trial line — or 'approve' — a lead the owner
// converts, as before. The owner's `trial_mode` setting decides; unset, it is instant when a
// panel that makes lines by itself (the reseller API or the sandbox) is set up and a panel
// package is chosen for trials, else approve (manual mode makes every line a task for the owner).
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { siteSettings } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { explicitTrialMode, type TrialMode } from "@/shared/trial-schemas";

/** The panel package trials are made on ('' when none is chosen). A private setting: not in the business profile. */
async function trialPackage(app: FastifyInstance): Promise<string> {
  return app.cache.get("trials:panel-trial-package", ["site_settings"], async () => {
    const [row] = await app.db
      .select({ value: siteSettings.value })
      .from(siteSettings)
      .where(eq(siteSettings.key, TRIAL_PACKAGE_SETTING))
      .limit(1);
    return row?.value.trim() ?? "";
  });
}

/** The default when the owner has not chosen: instant when the panel can make the trial line without them. */
export async function defaultTrialMode(app: FastifyInstance): Promise<TrialMode> {
  const panel = app.provisioning.panel;
  if (panel.mode === "manual") return "approve";
  return (await trialPackage(app)) ? "instant" : "approve";
}

export async function trialMode(app: FastifyInstance): Promise<TrialMode> {
  return explicitTrialMode((await loadBusiness(app)).settings) ?? (await defaultTrialMode(app));
}
