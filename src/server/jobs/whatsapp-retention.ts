// WhatsApp inbox retention (POPIA: keep personal information no longer than needed): inbox
// messages older than the whatsapp_retention_months setting (default 12) are deleted, a few
// times a day. Deleting is idempotent, so several processes may run it at once.
import type { FastifyInstance } from "fastify";
import { loadBusiness } from "@/server/lib/business";
import { purgeOldMessages } from "@/server/modules/whatsapp/inbox";
import { whatsappRetentionMonths } from "@/shared/inbox-schemas";

const EVERY_MS = 6 * 3_600_000;

export async function purgeWhatsAppMessages(app: FastifyInstance): Promise<number> {
  const months = whatsappRetentionMonths((await loadBusiness(app)).settings.whatsapp_retention_months);
  const purged = await purgeOldMessages(app.db, months);
  if (purged) app.log.info({ purged, months }, "WhatsApp inbox messages past their retention deleted");
  return purged;
}

export const whatsappRetentionJob = { name: "whatsapp-retention", everyMs: EVERY_MS, run: purgeWhatsAppMessages };
