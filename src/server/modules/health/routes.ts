// GET /api/health: liveness plus a live database round trip, for load balancers and monitors.
// Never cached: it must say what the database is doing now.
import { readFileSync } from "node:fs";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Health } from "@/shared/api";

/** An unreachable database must not hold a health probe for the pool's connect timeout. */
const PING_TIMEOUT_MS = 2000;

const version = readVersion();

/** The version in our package.json: the nearest one above this module (src/server/... or the built dist/server/main.js). */
function readVersion(): string {
  for (let up = "./"; up.length < 24; up += "../") {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "streamdesk" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not here: one level up
    }
  }
  return process.env.npm_package_version ?? "unknown";
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/health", { schema: { querystring: z.object({}) } }, async (_request, reply): Promise<Health> => {
    reply.header("cache-control", "no-store");
    const up = await pingWithin(() => app.database.ping(), PING_TIMEOUT_MS);
    if (!up) reply.status(503).header("retry-after", "5");
    return { status: up ? "ok" : "degraded", database: up ? "up" : "down", version, uptime_s: Math.round(process.uptime()) };
  });
};

async function pingWithin(ping: () => Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      ping().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export default routes;
