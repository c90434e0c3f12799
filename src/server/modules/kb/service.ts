// The help centre (knowledge base): published articles, browsed by category or searched with
// PostgreSQL full-text search.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { kbArticles } from "@/server/db/schema";
import type { KbArticle, KbArticleSummary } from "@/shared/api";

export interface KbCategory {
  category: string;
  count: number;
}

/** Every published article with its body, in browsing order: category, sort_order, title. */
export async function listPublishedArticles(db: Db): Promise<KbArticle[]> {
  const rows = await db
    .select()
    .from(kbArticles)
    .where(eq(kbArticles.is_published, true))
    .orderBy(asc(kbArticles.category), asc(kbArticles.sort_order), asc(kbArticles.title), asc(kbArticles.id));
  return rows.map((a) => ({ ...summaryOf(a), body: a.body }));
}

export function toSummary({ body: _body, ...summary }: KbArticle): KbArticleSummary {
  return summary;
}

/** {category, count} of published articles, by category name. */
export function categoriesOf(articles: readonly KbArticleSummary[]): KbCategory[] {
  const counts = new Map<string, number>();
  for (const a of articles) counts.set(a.category, (counts.get(a.category) ?? 0) + 1);
  return [...counts]
    .map(([category, count]) => ({ category, count }))
    .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}

// Exactly the expression of the GIN index in migration 0001 (config inlined, not bound), so
// PostgreSQL can answer the search from the index.
const document = sql`to_tsvector('english', coalesce(${kbArticles.title},'') || ' ' || coalesce(${kbArticles.summary},'') || ' ' || coalesce(${kbArticles.body},''))`;

// A word written with or without its hyphen ("load-shedding", "loadshedding"; "Wi-Fi", "wifi")
// is one word to a reader, but two different tokens to the parser. So the search also compares
// both sides with the hyphens between letters taken out. (Only those: a '-' before a word is
// websearch's "without".) Articles are few, so this second reading needs no index of its own.
const INNER_HYPHEN = "([[:alpha:]])-(?=[[:alpha:]])";
const joinedDocument = sql`to_tsvector('english', regexp_replace(coalesce(${kbArticles.title},'') || ' ' || coalesce(${kbArticles.summary},'') || ' ' || coalesce(${kbArticles.body},''), ${INNER_HYPHEN}, ${"\\1"}, 'g'))`;

/** The query with the hyphens inside words taken out ("load-shedding" → "loadshedding"). */
export function joinHyphenatedWords(q: string): string {
  return q.replace(/(\p{L})-(?=\p{L})/gu, "$1");
}

/** Published articles matching `q` (websearch syntax, English stemming), best match first. */
export async function searchArticles(db: Db, q: string, category?: string): Promise<KbArticleSummary[]> {
  const query = sql`websearch_to_tsquery('english', ${q})`;
  const joinedQuery = sql`websearch_to_tsquery('english', ${joinHyphenatedWords(q)})`;
  const rows = await db
    .select({
      id: kbArticles.id,
      slug: kbArticles.slug,
      title: kbArticles.title,
      category: kbArticles.category,
      summary: kbArticles.summary,
      updated_at: kbArticles.updated_at,
    })
    .from(kbArticles)
    .where(
      and(
        eq(kbArticles.is_published, true),
        category === undefined ? undefined : eq(kbArticles.category, category),
        sql`(${document} @@ ${query} or ${joinedDocument} @@ ${joinedQuery})`,
      ),
    )
    .orderBy(
      desc(sql`greatest(ts_rank(${document}, ${query}), ts_rank(${joinedDocument}, ${joinedQuery}))`),
      asc(kbArticles.sort_order),
      asc(kbArticles.title),
      asc(kbArticles.id),
    );
  return rows.map(summaryOf);
}

function summaryOf(a: Omit<KbArticleSummary, "updated_at"> & { updated_at: Date }): KbArticleSummary {
  return { id: a.id, slug: a.slug, title: a.title, category: a.category, summary: a.summary, updated_at: a.updated_at.toISOString() };
}
