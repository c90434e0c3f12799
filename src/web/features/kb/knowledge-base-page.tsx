// /knowledge-base: the help centre. Search as you type (debounced, ranked by the server's
// full-text search), filter by category, and the query lives in the address (?q=&category=)
// so a search can be shared or linked to from the support pages.
import { Search, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { KbArticleSummary } from "@/shared/api";
import { Container } from "@/web/components/ui/container";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { useKbArticles } from "./api/get-kb-articles";
import { useKbCategories } from "./api/get-kb-categories";
import { ArticleCard } from "./article-card";
import { StillStuck } from "./still-stuck";
import { useDebouncedValue } from "./use-debounced-value";

export const SEARCH_DEBOUNCE_MS = 300;

const QUICK_LINKS = [
  { to: "/setup-guide", label: "Setup guide" },
  { to: "/technical-support", label: "Technical support" },
  { to: "/stream-test", label: "Stream test" },
  { to: "/status", label: "System status" },
];

export function KnowledgeBasePage() {
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get("q") ?? "";
  const category = params.get("category") ?? "";
  const [text, setText] = useState(urlQuery);
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const inputId = useId();

  // The settled search goes into the address (replacing, so Back leaves the help centre).
  useEffect(() => {
    if (query === urlQuery) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (query) next.set("q", query);
        else next.delete("q");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [query, urlQuery, setParams]);

  // The address changed from outside (Back, a link): show its search in the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the address matters here
  useEffect(() => {
    if (urlQuery !== query) setText(urlQuery);
  }, [urlQuery]);

  const setCategory = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set("category", value);
        else next.delete("category");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const articles = useKbArticles({ q: query || undefined, category: category || undefined });
  const categories = useKbCategories();
  const total = categories.data?.reduce((sum, c) => sum + c.count, 0);
  const searching = query !== "" || category !== "";

  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-3xl flex-col gap-4">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">Help Centre</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">How can we help?</h1>
        <p className="text-lg text-pretty text-ink-muted">
          Answers about setting up, paying, and getting the best picture from your connection.
        </p>
        <search className="mt-2 flex flex-col gap-2">
          <label htmlFor={inputId} className="text-sm font-medium text-ink">
            Search the help centre
          </label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-ink-subtle" />
            <Input
              id={inputId}
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="e.g. buffering or EFT"
              autoComplete="off"
              enterKeyHint="search"
              maxLength={200}
              className="min-h-14 pr-14 pl-12 text-lg [&::-webkit-search-cancel-button]:hidden"
            />
            {text ? (
              <button
                type="button"
                onClick={() => setText("")}
                aria-label="Clear the search"
                className="absolute top-1/2 right-1.5 flex size-11 -translate-y-1/2 items-center justify-center rounded-lg text-ink-muted hover:bg-surface-overlay hover:text-ink"
              >
                <X aria-hidden="true" className="size-5" />
              </button>
            ) : null}
          </div>
        </search>
      </div>

      {categories.data?.length ? (
        <fieldset className="mt-8 flex flex-wrap gap-2">
          <legend className="sr-only">Filter by topic</legend>
          <TopicButton active={category === ""} onClick={() => setCategory("")} label="All topics" count={total} />
          {categories.data.map((c) => (
            <TopicButton
              key={c.category}
              active={category === c.category}
              onClick={() => setCategory(category === c.category ? "" : c.category)}
              label={c.category}
              count={c.count}
            />
          ))}
        </fieldset>
      ) : null}

      <div className="mt-10 grid gap-10 lg:grid-cols-[1fr_16rem]">
        <section aria-labelledby="kb-results-heading" className="flex min-w-0 flex-col gap-5">
          <h2 id="kb-results-heading" className="sr-only">
            Articles
          </h2>
          <p role="status" className="text-sm text-ink-muted">
            {articles.isPending ? "Loading articles…" : articles.isError ? "" : resultsLine(articles.data.length, query, category)}
          </p>
          {articles.isPending ? (
            <div className="grid gap-4 sm:grid-cols-2">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-32 rounded-card" />
              ))}
            </div>
          ) : articles.isError ? (
            <p role="alert" className="rounded-card border border-line bg-surface p-5 text-ink-muted">
              We couldn't load the help articles just now. Please try again in a moment, or message us below.
            </p>
          ) : articles.data.length === 0 ? (
            <NoResults query={query} onClear={() => setText("")} />
          ) : searching ? (
            <ArticleGrid articles={articles.data} busy={articles.isFetching} />
          ) : (
            <GroupedArticles articles={articles.data} />
          )}
        </section>

        <nav aria-label="More help" className="flex flex-col gap-2 self-start rounded-card border border-line bg-surface p-5">
          <p className="mb-1 text-sm font-semibold text-ink">More ways to get going</p>
          {QUICK_LINKS.map((link) => (
            <Link
              key={link.to}
              to={link.to}
              className="flex min-h-11 items-center rounded-lg px-3 text-ink-muted transition-colors hover:bg-surface-raised hover:text-ink"
            >
              {link.label}
            </Link>
          ))}
        </nav>
      </div>

      <div className="mt-14 max-w-3xl">
        <StillStuck />
      </div>
    </Container>
  );
}

function resultsLine(count: number, query: string, category: string): string {
  const noun = count === 1 ? "article" : "articles";
  const where = category ? ` in ${category}` : "";
  return query ? `${count} ${noun} for “${query}”${where}` : `${count} ${noun}${where}`;
}

function TopicButton({ active, onClick, label, count }: { active: boolean; onClick: () => void; label: string; count?: number }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        "inline-flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-medium transition-colors",
        active ? "border-accent bg-accent-soft text-ink" : "border-line bg-surface text-ink-muted hover:border-line-strong hover:text-ink",
      )}
    >
      {label}
      {count !== undefined ? <span className="text-xs text-ink-subtle tabular">{count}</span> : null}
    </button>
  );
}

function ArticleGrid({ articles, busy = false }: { articles: KbArticleSummary[]; busy?: boolean }) {
  return (
    <ul aria-busy={busy} className={cn("grid gap-4 sm:grid-cols-2", busy && "opacity-70 transition-opacity")}>
      {articles.map((article) => (
        <li key={article.id}>
          <ArticleCard article={article} />
        </li>
      ))}
    </ul>
  );
}

/** Browsing everything: one block per category, in the server's order. */
function GroupedArticles({ articles }: { articles: KbArticleSummary[] }) {
  const groups = new Map<string, KbArticleSummary[]>();
  for (const article of articles) groups.set(article.category, [...(groups.get(article.category) ?? []), article]);
  return (
    <div className="flex flex-col gap-10">
      {[...groups].map(([category, list]) => (
        <div key={category} className="flex flex-col gap-4">
          <h3 className="text-xl font-semibold text-ink">{category}</h3>
          <ul className="grid gap-4 sm:grid-cols-2">
            {list.map((article) => (
              <li key={article.id}>
                <ArticleCard article={article} showCategory={false} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function NoResults({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-card border border-dashed border-line-strong p-6">
      <p className="text-lg font-semibold text-ink">{query ? `No articles match “${query}”` : "No articles here yet"}</p>
      <p className="text-ink-muted">Try fewer or different words, like “buffering” or “Fire Stick”, or ask us directly.</p>
      {query ? (
        <button type="button" onClick={onClear} className="min-h-11 font-medium text-accent-ink underline underline-offset-4">
          Clear the search
        </button>
      ) : null}
    </div>
  );
}
