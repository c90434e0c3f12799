// POST /api/downloads/:id/download (count, then the URL) and
// POST /api/downloads/:id/instructions (send the app's installation guide; spec §5).
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest } from "@/server/lib/errors";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { instructionsRequestSchema } from "@/shared/schemas";
import { countDownload, findGuide, queueInstructions, recipientOf } from "./service";

const params = z.object({ id: z.uuid({ error: "That app id is not valid" }) });

export const RECIPIENT_LIMIT_MESSAGE = "Instructions were already sent to this contact several times. Please wait a minute and try again.";

/** Per recipient: enough to resend after a typo, too few to flood someone's inbox or phone. */
export const recipientLimit = (publicLimit: number) => Math.max(3, Math.floor(publicLimit / 5));

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post("/downloads/:id/download", { schema: { params } }, async (request, reply): Promise<{ url: string }> => {
    reply.header("cache-control", "no-store");
    return { url: await countDownload(app, request.params.id) };
  });

  app.post("/downloads/:id/instructions", { schema: { params } }, async (request, reply): Promise<{ success: true }> => {
    reply.header("cache-control", "no-store");
    const limit = app.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    await enforce(app.db, [{ key: `instructions:ip:${clientIp(request)}`, limit, message: PUBLIC_WRITE_MESSAGE }]);

    // Validated here rather than by the route schema so the spec's own words come back.
    // Fields other than type and contact (appName, installationGuide, ...) are dropped.
    const parsed = instructionsRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.map(String).join(".") || "_";
        fields[key] ??= issue.message;
      }
      throw badRequest(fields.contact ?? Object.values(fields)[0] ?? "Please check the information you entered.", fields);
    }

    const row = await findGuide(app, request.params.id);
    await enforce(app.db, [
      { key: `instructions:to:${recipientOf(parsed.data)}`, limit: recipientLimit(limit), message: RECIPIENT_LIMIT_MESSAGE },
    ]);
    await queueInstructions(app, row, parsed.data);
    return { success: true };
  });
};

export default routes;
