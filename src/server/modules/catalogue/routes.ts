// Public catalogue reads: packages, specials, banners, settings, downloads, testimonials.
// Each read is cached (invalidated by the change feed per table) as a prepared response (its
// bytes, ETag and compressed forms: lib/cache.ts), so a hit costs no database round trip, no
// JSON and no compression work, and a browser that has it gets a 304.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { demoClaims } from "@/server/db/seed";
import { revalidateAlways } from "@/server/lib/cache";
import { unavailablePackages } from "@/server/lib/sellable";
import type { ListResponse, Special } from "@/shared/api";
import { listActiveSpecials, listBanners, listDownloads, listPackages, listTestimonials, settingsMap, specialsAt } from "./service";

/** These reads take no parameters; unknown ones are stripped (ignored). */
const noQuery = { querystring: z.object({}) };

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache } = app;

  app.addHook("onRequest", revalidateAlways);

  /** A cached {data} read, answered as prepared bytes. */
  const prepared = (key: string, tables: readonly string[], load: () => Promise<unknown>) =>
    cache.handler(key, tables, async () => ({ data: await load() }));

  app.get(
    "/packages",
    { schema: noQuery },
    // A mapping change touches its packages' rows (modules/panel/routes.ts), so this read follows it.
    prepared("catalogue:packages", ["packages"], async () =>
      listPackages(app.db, await unavailablePackages(app.db, app.provisioning.panel.mode)),
    ),
  );

  app.get("/specials", { schema: noQuery }, async (): Promise<ListResponse<Special>> => {
    // The window is applied per request so a special appears or expires on time without a write.
    const specials = await cache.get("catalogue:specials", ["pricing_specials"], () => listActiveSpecials(app.db));
    return { data: specialsAt(specials, Date.now()) };
  });

  app.get(
    "/banners",
    { schema: noQuery },
    prepared("catalogue:banners", ["banners"], () => listBanners(app.db)),
  );

  app.get(
    "/settings",
    { schema: noQuery },
    prepared("catalogue:settings", ["site_settings"], () => settingsMap(app.db)),
  );

  app.get(
    "/downloads",
    { schema: noQuery },
    prepared("catalogue:downloads", ["downloads"], () => listDownloads(app.db)),
  );

  app.get(
    "/testimonials",
    { schema: noQuery },
    prepared("catalogue:testimonials", ["testimonials_managed", "site_settings"], async () =>
      listTestimonials(app.db, (await demoClaims(app.db)).testimonials),
    ),
  );
};

export default routes;
