// The business's own facts (branding and settings) that server-side messages and pages need.
// Read through the change-feed-invalidated cache, so an edit in the admin shows at once.
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { siteBranding, siteSettings } from "@/server/db/schema";
import { formatPhoneForDisplay } from "@/shared/whatsapp";

export interface BusinessProfile {
  companyName: string;
  tagline: string;
  whatsappNumber: string;
  supportEmail: string;
  supportHours: string;
  publicUrl: string;
  settings: Record<string, string>;
}

export async function loadBusiness(app: FastifyInstance): Promise<BusinessProfile> {
  return app.cache.get("business-profile", ["site_branding", "site_settings"], async () => {
    const [branding, settings] = await Promise.all([
      app.db.select().from(siteBranding).where(eq(siteBranding.is_active, true)),
      app.db.select().from(siteSettings).where(eq(siteSettings.is_active, true)),
    ]);
    const b = Object.fromEntries(branding.map((r) => [r.setting_name, r.setting_value]));
    const s = Object.fromEntries(settings.map((r) => [r.key, r.value]));
    return {
      companyName: b.company_name || "StreamDesk",
      tagline: b.tagline || "",
      whatsappNumber: b.whatsapp_number || "",
      supportEmail: b.support_email || "",
      supportHours: s.support_hours || "9am-8pm, 7 days a week",
      publicUrl: (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/$/, ""),
      settings: s,
    };
  });
}

/** The sign-off every customer message ends with: who we are and how to reach a person. */
export function signOff(business: BusinessProfile): string {
  const lines = [`— ${business.companyName}`];
  const contact = [
    business.whatsappNumber ? `WhatsApp ${formatPhoneForDisplay(business.whatsappNumber)}` : "",
    business.supportEmail ? business.supportEmail : "",
  ].filter(Boolean);
  if (contact.length) lines.push(`Need a person? ${contact.join(" or ")} (${business.supportHours}).`);
  return lines.join("\n");
}
