import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { KbArticleSummary } from "@/shared/api";

/** One article in a list: the whole card is the link. */
export function ArticleCard({ article, showCategory = true }: { article: KbArticleSummary; showCategory?: boolean }) {
  return (
    <Link
      to={`/knowledge-base/${encodeURIComponent(article.slug)}`}
      data-article={article.slug}
      className="group flex h-full items-start gap-4 rounded-card border border-line bg-surface p-5 transition-colors hover:border-accent/60 hover:bg-surface-raised"
    >
      <span className="flex min-w-0 flex-1 flex-col gap-1.5">
        {showCategory ? <span className="text-xs font-semibold tracking-wide text-accent-ink uppercase">{article.category}</span> : null}
        <span className="text-lg font-semibold text-pretty text-ink">{article.title}</span>
        {article.summary ? <span className="text-sm text-pretty text-ink-muted">{article.summary}</span> : null}
      </span>
      <ChevronRight aria-hidden="true" className="mt-1 size-5 shrink-0 text-ink-subtle transition-transform group-hover:translate-x-0.5" />
    </Link>
  );
}
