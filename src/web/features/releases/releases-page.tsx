// /releases: what changed in each version, newest first, dated '22 Nov 2026'.
import type { Release } from "@/shared/api";
import { formatDate } from "@/shared/dates";
import { PageIntro } from "@/web/components/ui/page-intro";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useReleases } from "./api/get-releases";

/** Newest first by release date, then version, whatever order the rows arrive in. */
export function newestFirst(releases: readonly Release[]): Release[] {
  return [...releases].sort(
    (a, b) => b.released_on.localeCompare(a.released_on) || b.version.localeCompare(a.version, "en", { numeric: true }),
  );
}

export function ReleasesPage() {
  const { data, isPending, isError } = useReleases();
  return (
    <PageIntro
      eyebrow="Release notes"
      title="What's new"
      description="Changes and improvements to our website, apps and service, newest first."
    >
      {isPending ? (
        <div role="status" aria-busy="true" className="flex max-w-3xl flex-col gap-6">
          <span className="sr-only">Loading...</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40 rounded-card" />
          ))}
        </div>
      ) : isError ? (
        <p role="alert" className="max-w-3xl text-ink-muted">
          We couldn't load the release notes just now. Please try again in a moment.
        </p>
      ) : data.length === 0 ? (
        <p className="max-w-3xl text-ink-muted">No release notes yet.</p>
      ) : (
        <ol className="relative flex max-w-3xl flex-col gap-10 border-l border-line pl-6 sm:pl-8">
          {newestFirst(data).map((release, index) => (
            <li key={release.id} data-release={release.version} className="relative">
              <span
                aria-hidden="true"
                className={`absolute top-2 -left-[calc(1.5rem+5px)] size-2.5 rounded-full sm:-left-[calc(2rem+5px)] ${index === 0 ? "bg-accent" : "bg-line-strong"}`}
              />
              <article className="flex flex-col gap-3">
                <header className="flex flex-col gap-1">
                  <p className="flex flex-wrap items-center gap-x-3 text-sm text-ink-subtle">
                    <time dateTime={release.released_on} className="tabular">
                      {formatDate(release.released_on)}
                    </time>
                    <span className="rounded-full bg-surface-overlay px-2.5 py-0.5 font-mono text-xs text-ink-muted">
                      v{release.version.replace(/^v/i, "")}
                    </span>
                  </p>
                  <h2 className="text-xl font-semibold text-balance text-ink sm:text-2xl">{release.title}</h2>
                </header>
                <ReleaseBody body={release.body} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </PageIntro>
  );
}

/** Notes are plain text: '- ' lines become a list, other lines paragraphs (never parsed as HTML). */
function ReleaseBody({ body }: { body: string }) {
  const lines = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const blocks: { list: boolean; lines: string[] }[] = [];
  for (const line of lines) {
    const bullet = /^[-*•]\s+(.+)$/.exec(line);
    const text = bullet ? bullet[1] : line;
    const last = blocks[blocks.length - 1];
    if (last && last.list === Boolean(bullet)) last.lines.push(text);
    else blocks.push({ list: Boolean(bullet), lines: [text] });
  }
  return (
    <div className="flex flex-col gap-3 text-ink-muted">
      {blocks.map((block, i) =>
        block.list ? (
          <ul key={i} className="flex list-disc flex-col gap-1.5 pl-5 marker:text-accent-ink">
            {block.lines.map((line, j) => (
              <li key={j}>{line}</li>
            ))}
          </ul>
        ) : (
          block.lines.map((line, j) => <p key={`${i}-${j}`}>{line}</p>)
        ),
      )}
    </div>
  );
}
