// Inline info banners (spec §2, §4): every active banner that is not a 'special' (those are the
// popup). Each can be dismissed; the dismissal lasts for this page view only.
import { Info, X } from "lucide-react";
import { useState } from "react";
import type { Banner } from "@/shared/api";

export function InfoBanners({ banners }: { banners: readonly Banner[] }) {
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = banners.filter((banner) => banner.banner_type !== "special" && !dismissed.has(banner.id));
  if (shown.length === 0) return null;
  return (
    <ul className="mx-auto mb-8 flex max-w-3xl flex-col gap-3" aria-label="Announcements">
      {shown.map((banner) => (
        <li
          key={banner.id}
          data-banner={banner.id}
          className="flex items-start gap-3 rounded-xl border border-sky-400/30 bg-sky-400/10 py-3 pr-2 pl-4 text-sm animate-fade-in"
        >
          <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-300" />
          <div className="min-w-0 flex-1 py-0.5">
            {banner.title ? <p className="font-semibold text-ink">{banner.title}</p> : null}
            {banner.content ? <p className="text-ink-muted">{banner.content}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => setDismissed((set) => new Set(set).add(banner.id))}
            className="-my-1 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-ink-muted hover:bg-surface-overlay hover:text-ink"
            aria-label={`Dismiss: ${banner.title || "announcement"}`}
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
