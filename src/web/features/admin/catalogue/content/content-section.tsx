// /admin/content and /admin/content/:subsection (hero, about, footer): the homepage's texts.
import { NavLink, useParams } from "react-router";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { AdminPageHeader } from "../../components/admin-page-header";
import { useResourceList } from "../api/resources";
import type { AdminContent } from "../api/types";
import { ContentForm, type ContentSectionName } from "./content-forms";

const TABS: { id: ContentSectionName; label: string; description: string }[] = [
  { id: "hero", label: "Hero", description: "The top of the homepage: headline, buttons and the features list." },
  { id: "about", label: "About", description: "The about section and its four feature cards." },
  { id: "footer", label: "Footer", description: "The footer's text, quick links, support links and disclaimer." },
];

export function ContentSection() {
  const { subsection } = useParams();
  const tab = TABS.find((t) => t.id === subsection) ?? TABS[0];
  const { data, isPending, error, refetch } = useResourceList<AdminContent>("content");
  const row = data?.find((r) => r.section_name === tab.id);

  return (
    <>
      <AdminPageHeader title="Homepage content" description={tab.description} />
      <nav aria-label="Homepage sections" className="mb-6 flex gap-2 overflow-x-auto">
        {TABS.map((t) => (
          <NavLink
            key={t.id}
            to={`/admin/content/${t.id}`}
            className={cn(
              "inline-flex min-h-11 items-center rounded-xl px-4 text-sm font-semibold",
              t.id === tab.id ? "bg-accent text-white" : "text-ink-muted hover:bg-surface-raised hover:text-ink",
            )}
            aria-current={t.id === tab.id ? "page" : undefined}
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      {error && !data ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-card border border-bad/40 bg-bad/5 p-6">
          <p className="text-ink">The content couldn't load: {error.message}</p>
          <button type="button" className="min-h-11 text-accent-ink underline" onClick={() => refetch()}>
            Try Again
          </button>
        </div>
      ) : isPending ? (
        <Skeleton className="h-96 w-full" />
      ) : (
        // a fresh form per section (typing is never overwritten by a refetch)
        <ContentForm key={`${tab.id}-${row?.id ?? "new"}`} section={tab.id} row={row} />
      )}
    </>
  );
}
