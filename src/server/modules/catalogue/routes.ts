// Public catalogue reads: packages, specials, banners, settings, downloads, testimonials.
// Each read is cached (invalidated by the change feed per table) as its serialised body, so
// a hit costs no database round trip and no JSON work.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ListResponse, Special } from "../../../shared/api";
import { listActiveSpecials, listBanners, listDownloads, listPackages, listTestimonials, settingsMap, specialsAt } from "./service";

const JSON_TYPE = "application/json; charset=utf-8";
/** These reads take no parameters; unknown ones are stripped (ignored). */
const noQuery = { querystring: z.object({}) };

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache } = app;

  // Browsers revalidate every time; TanStack Query does the client-side caching.
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-cache");
  });

  /** A cached, already serialised {data} body. */
  const cachedBody = <T>(key: string, tables: readonly string[], load: () => Promise<T>) =>
    cache.get(key, tables, async () => JSON.stringify({ data: await load() }));

  app.get("/packages", { schema: noQuery }, async (_request, reply) => {
    const body = await cachedBody("catalogue:packages", ["packages"], () => listPackages(app.db));
    return reply.type(JSON_TYPE).send(body);
  });

  app.get("/specials", { schema: noQuery }, async (): Promise<ListResponse<Special>> => {
    // The window is applied per request so a special appears or expires on time without a write.
    const specials = await cache.get("catalogue:specials", ["pricing_specials"], () => listActiveSpecials(app.db));
    return { data: specialsAt(specials, Date.now()) };
  });

  app.get("/banners", { schema: noQuery }, async (_request, reply) => {
    const body = await cachedBody("catalogue:banners", ["banners"], () => listBanners(app.db));
    return reply.type(JSON_TYPE).send(body);
  });

  app.get("/settings", { schema: noQuery }, async (_request, reply) => {
    const body = await cachedBody("catalogue:settings", ["site_settings"], () => settingsMap(app.db));
    return reply.type(JSON_TYPE).send(body);
  });

  app.get("/downloads", { schema: noQuery }, async (_request, reply) => {
    const body = await cachedBody("catalogue:downloads", ["downloads"], () => listDownloads(app.db));
    return reply.type(JSON_TYPE).send(body);
  });

  app.get("/testimonials", { schema: noQuery }, async (_request, reply) => {
    const body = await cachedBody("catalogue:testimonials", ["testimonials_managed"], () => listTestimonials(app.db));
    return reply.type(JSON_TYPE).send(body);
  });
};

export default routes;
