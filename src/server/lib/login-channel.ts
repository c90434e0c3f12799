// How a shop's login details go now (issue 41 item 7), for the pages' promises
// (shared/login-channel.ts): by WhatsApp when the Cloud API is set up and the template for the
// login's kind is approved (the outbox worker's rule outside a number's window), else by e-mail
// (when the person gives an address; the page knows whether they did).
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { whatsappTemplates } from "@/server/db/schema";
import type { LoginChannel } from "@/shared/login-channel";

/** The outbox kind that carries a line's login. */
export const LOGIN_KIND = "credentials";

export async function shopLoginChannel(db: Pick<Db, "select">, cloudApi: boolean): Promise<LoginChannel> {
  if (!cloudApi) return "email";
  const [template] = await db
    .select({ enabled: whatsappTemplates.enabled })
    .from(whatsappTemplates)
    .where(eq(whatsappTemplates.kind, LOGIN_KIND));
  return template?.enabled ? "whatsapp" : "email";
}
