// /knowledge-base/:slug: one help article (GET /api/kb/:slug), its body rendered safely, a way
// to reach a person, and related reading.
import { ArrowLeft, ChevronRight } from "lucide-react";
import { Link, useParams } from "react-router";
import { formatDate } from "@/shared/dates";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { ApiError } from "@/web/lib/api";
import { usePageTitle } from "@/web/lib/page-title";
import { useKbArticle } from "./api/get-kb-article";
import { useKbArticles } from "./api/get-kb-articles";
import { ArticleCard } from "./article-card";
import { KbBody } from "./kb-body";
import { StillStuck } from "./still-stuck";

const MORE_HELP = [
  { to: "/setup-guide", label: "Setup guide for your device" },
  { to: "/technical-support", label: "Technical support checklists" },
  { to: "/stream-test", label: "Test your connection" },
  { to: "/status", label: "Is something down? System status" },
];

export function KbArticlePage() {
  const { slug = "" } = useParams();
  const article = useKbArticle(slug);
  usePageTitle(article.data?.title);

  if (article.isPending) return <ArticleSkeleton />;
  if (article.isError) return <ArticleMissing notFound={article.error instanceof ApiError && article.error.status === 404} />;

  const { title, category, summary, body, updated_at } = article.data;
  return (
    <Container className="py-10 sm:py-16">
      <nav aria-label="Breadcrumb" className="mb-8 text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-ink-muted">
          <li>
            <Link to="/knowledge-base" className="inline-flex min-h-11 items-center rounded-md hover:text-ink">
              Help Centre
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li>
            <Link
              to={`/knowledge-base?category=${encodeURIComponent(category)}`}
              className="inline-flex min-h-11 items-center rounded-md hover:text-ink"
            >
              {category}
            </Link>
          </li>
        </ol>
      </nav>
      <div className="grid gap-12 lg:grid-cols-[minmax(0,46rem)_1fr]">
        <article className="flex min-w-0 flex-col gap-6">
          <header className="flex flex-col gap-3 border-b border-line pb-6">
            <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">{title}</h1>
            {summary ? <p className="text-lg text-pretty text-ink-muted">{summary}</p> : null}
            {updated_at ? <p className="text-sm text-ink-subtle">Updated {formatDate(updated_at)}</p> : null}
          </header>
          <KbBody body={body} />
          <div className="mt-6">
            <StillStuck topic={title} />
          </div>
        </article>
        <Related slug={slug} category={category} />
      </div>
    </Container>
  );
}

/** Other articles in the same category, then the self-help pages. */
function Related({ slug, category }: { slug: string; category: string }) {
  const { data } = useKbArticles({ category });
  const others = (data ?? []).filter((a) => a.slug !== slug).slice(0, 4);
  return (
    <aside aria-labelledby="related-heading" className="flex flex-col gap-6 lg:sticky lg:top-24 lg:self-start">
      <h2 id="related-heading" className="text-lg font-semibold text-ink">
        Related help
      </h2>
      {others.length ? (
        <ul className="flex flex-col gap-3">
          {others.map((a) => (
            <li key={a.id}>
              <ArticleCard article={a} showCategory={false} />
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="flex flex-col gap-1 rounded-card border border-line bg-surface p-3">
        {MORE_HELP.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="flex min-h-11 items-center rounded-lg px-3 text-ink-muted transition-colors hover:bg-surface-raised hover:text-ink"
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function ArticleMissing({ notFound }: { notFound: boolean }) {
  return (
    <Container className="flex flex-col items-start gap-5 py-16 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        {notFound ? "We couldn't find that help article" : "We couldn't load this article"}
      </h1>
      <p className="max-w-xl text-lg text-ink-muted">
        {notFound
          ? "It may have been renamed or taken down. Search the help centre for what you need."
          : "Please check your connection and try again in a moment."}
      </p>
      <Link to="/knowledge-base" className={buttonClasses()}>
        <ArrowLeft aria-hidden="true" />
        Back to the Help Centre
      </Link>
      <div className="mt-6 w-full max-w-3xl">
        <StillStuck />
      </div>
    </Container>
  );
}

function ArticleSkeleton() {
  return (
    <Container className="py-10 sm:py-16">
      <div role="status" aria-busy="true" className="flex max-w-3xl flex-col gap-4">
        <span className="sr-only">Loading...</span>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-10 w-4/5" />
        <Skeleton className="h-6 w-3/5" />
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </div>
    </Container>
  );
}
