// Help centre reads: GET /api/kb?q=&category=, /api/kb/categories, /api/kb/:slug.
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "@/server/lib/errors";
import type { KbArticle, KbArticleSummary, ListResponse } from "@/shared/api";
import { categoriesOf, type KbCategory, listPublishedArticles, searchArticles, toSummary } from "./service";

const MAX_QUERY_LENGTH = 200;
const MAX_CATEGORY_LENGTH = 100;
const MAX_SLUG_LENGTH = 200;
/**
 * Distinct searches kept in the read cache between two knowledge-base changes. Browsing is
 * cached in one entry; free text is open-ended, so beyond this many distinct searches the
 * rest go straight to PostgreSQL instead of growing memory without bound.
 */
const MAX_CACHED_SEARCHES = 500;

/** Trimmed text that PostgreSQL accepts (it refuses NUL characters); blank means absent. */
const textParam = (label: string, max: number) =>
  z
    .string()
    .max(max, `${label} has at most ${max} characters.`)
    .refine((s) => !s.includes("\u0000"), `${label} contains a character that is not allowed.`)
    .optional()
    .transform((s) => s?.trim().replace(/\s+/g, " ") || undefined);

const listQuery = z.object({
  q: textParam("The search", MAX_QUERY_LENGTH),
  category: textParam("The category", MAX_CATEGORY_LENGTH),
});

const slugParams = z.object({ slug: z.string().max(MAX_SLUG_LENGTH) });

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache } = app;
  const TABLES = ["kb_articles"] as const;

  // Browsers revalidate every time; TanStack Query does the client-side caching.
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-cache");
  });

  const published = () => cache.get("kb:articles", TABLES, () => listPublishedArticles(app.db));

  const cachedSearches = new Set<string>();
  app.changes.onChange((change) => {
    if (change.table === "kb_articles") cachedSearches.clear();
  });

  app.get("/kb", { schema: { querystring: listQuery } }, async (request): Promise<ListResponse<KbArticleSummary>> => {
    const { q, category } = request.query;
    if (q === undefined) {
      const articles = await published();
      return { data: articles.filter((a) => category === undefined || a.category === category).map(toSummary) };
    }
    const key = `kb:search:${category ?? ""}:${q}`;
    const search = () => searchArticles(app.db, q, category);
    if (!cachedSearches.has(key) && cachedSearches.size >= MAX_CACHED_SEARCHES) return { data: await search() };
    cachedSearches.add(key);
    return { data: await cache.get(key, TABLES, search) };
  });

  app.get("/kb/categories", { schema: { querystring: z.object({}) } }, async (): Promise<ListResponse<KbCategory>> => {
    return { data: categoriesOf(await published()) };
  });

  app.get("/kb/:slug", { schema: { params: slugParams, querystring: z.object({}) } }, async (request): Promise<KbArticle> => {
    const article = (await published()).find((a) => a.slug === request.params.slug);
    if (!article) throw notFound("That help article does not exist or is no longer published.");
    return article;
  });
};

export default routes;
