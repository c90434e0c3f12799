// Meta's review of the shop's WhatsApp templates, read once a day (modules/whatsapp/templates.ts):
// an approval switches the kind's template on with no owner step, a rejection shows Meta's
// reason. The timer ticks hourly but Meta is asked only when the last read is a day old, so a
// restart does not ask again; several processes at once only write the same states.
import { and, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { whatsappTemplates } from "@/server/db/schema";
import { missingSettings, refreshTemplates } from "@/server/modules/whatsapp/templates";

const DAY_MS = 24 * 3_600_000;

export async function refreshWhatsAppTemplates(app: FastifyInstance, now = new Date()): Promise<number> {
  if (missingSettings(app).length) return 0;
  const [due] = await app.db
    .select({ kind: whatsappTemplates.kind })
    .from(whatsappTemplates)
    .where(
      and(
        isNotNull(whatsappTemplates.submitted_at),
        or(isNull(whatsappTemplates.checked_at), lt(whatsappTemplates.checked_at, new Date(now.getTime() - DAY_MS))),
      ),
    )
    .limit(1);
  if (!due) return 0;
  const changed = await refreshTemplates(app);
  // A template Meta no longer lists is not read again until tomorrow either.
  await app.db.update(whatsappTemplates).set({ checked_at: sql`now()` }).where(isNotNull(whatsappTemplates.submitted_at));
  if (changed) app.log.info({ changed }, "WhatsApp template review states changed");
  return changed;
}

export const whatsappTemplatesJob = {
  name: "whatsapp-templates",
  everyMs: 3_600_000,
  run: (app: FastifyInstance) => refreshWhatsAppTemplates(app),
};
