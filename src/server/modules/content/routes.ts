// Public site-content reads: images, homepage content, branding, notices, release notes, and
// the web app manifest built from the branding (GET /api/manifest.webmanifest).
// Each table is cached whole (invalidated by the change feed); filters chosen by the caller
// (image keys, section) and time windows are applied per request, so the cache holds one
// entry per table however many distinct queries arrive, and windows open and close on time.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { demoClaims } from "@/server/db/seed";
import { revalidateAlways } from "@/server/lib/cache";
import type { ContentSection, ImageEntry, ListResponse, Notice } from "@/shared/api";
import { brandingMap, listContent, listImages, listNotices, listReleases, noticesAt, webManifest } from "./service";

const MAX_KEYS = 50;
const MAX_KEY_LENGTH = 64;
const MAX_SECTION_LENGTH = 100;

const noQuery = { querystring: z.object({}) };

const imagesQuery = z.object({
  /** comma list of image keys; blanks are dropped and duplicates merged */
  keys: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const keys = [...new Set(raw.split(",").map((k) => k.trim()))].filter(Boolean);
      if (keys.length > MAX_KEYS) {
        ctx.addIssue({ code: "custom", message: `Ask for at most ${MAX_KEYS} image keys.` });
        return z.NEVER;
      }
      if (keys.some((k) => k.length > MAX_KEY_LENGTH)) {
        ctx.addIssue({ code: "custom", message: `An image key has at most ${MAX_KEY_LENGTH} characters.` });
        return z.NEVER;
      }
      return keys.length ? keys : undefined;
    }),
});

const contentQuery = z.object({
  section: z
    .string()
    .max(MAX_SECTION_LENGTH, `A section name has at most ${MAX_SECTION_LENGTH} characters.`)
    .optional()
    .transform((s) => s?.trim() || undefined),
});

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache } = app;

  app.addHook("onRequest", revalidateAlways);

  app.get("/images", { schema: { querystring: imagesQuery } }, async (request): Promise<ListResponse<ImageEntry>> => {
    const images = await cache.get("content:images", ["image_registry"], () => listImages(app.db));
    const { keys } = request.query;
    if (!keys) return { data: images };
    const wanted = new Set(keys);
    return { data: images.filter((i) => wanted.has(i.image_key)) };
  });

  app.get("/content", { schema: { querystring: contentQuery } }, async (request): Promise<ListResponse<ContentSection>> => {
    // A demo claim still as seeded is left off (db/seed.ts demoClaims); confirming one changes site_settings.
    const sections = await cache.get("content:homepage", ["homepage_content", "site_settings"], async () =>
      listContent(app.db, (await demoClaims(app.db)).homepage),
    );
    const { section } = request.query;
    return { data: section === undefined ? sections : sections.filter((s) => s.section_name === section) };
  });

  app.get(
    "/branding",
    { schema: noQuery },
    cache.handler("content:branding", ["site_branding"], async () => ({ data: await brandingMap(app.db) })),
  );

  app.get(
    "/manifest.webmanifest",
    { schema: noQuery },
    cache.handler(
      "content:manifest",
      ["site_branding"],
      async () => webManifest(await brandingMap(app.db)),
      "application/manifest+json; charset=utf-8",
    ),
  );

  app.get("/notices", { schema: noQuery }, async (): Promise<ListResponse<Notice>> => {
    const list = await cache.get("content:notices", ["notices"], () => listNotices(app.db, "public"));
    return { data: noticesAt(list, Date.now()) };
  });

  app.get(
    "/releases",
    { schema: noQuery },
    cache.handler("content:releases", ["releases"], async () => ({ data: await listReleases(app.db) })),
  );
};

export default routes;
