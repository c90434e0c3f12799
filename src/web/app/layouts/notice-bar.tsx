// The business's notices to visitors (maintenance tonight, a channel change…), under the
// navigation on every public page. Each can be closed for this page view, like the info banners.
import { AlertTriangle, Info, ShieldAlert, X } from "lucide-react";
import { useState } from "react";
import type { Notice } from "@/shared/api";
import { cn } from "@/web/lib/cn";
import { useNotices } from "@/web/lib/queries/notices";

const LOOK: Record<string, { icon: typeof Info; box: string; iconClass: string }> = {
  critical: { icon: ShieldAlert, box: "border-bad/40 bg-bad/10", iconClass: "text-bad" },
  warning: { icon: AlertTriangle, box: "border-warn/40 bg-warn/10", iconClass: "text-warn" },
  info: { icon: Info, box: "border-line bg-surface-raised", iconClass: "text-accent-ink" },
};

export function NoticeBar() {
  const notices = useNotices();
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = notices.filter((n) => !closed.has(n.id));
  if (shown.length === 0) return null;
  return (
    <section aria-label="Notices" className="mx-auto flex w-full max-w-6xl flex-col gap-2 px-4 pt-4 sm:px-6">
      {shown.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} onClose={() => setClosed((ids) => new Set(ids).add(notice.id))} />
      ))}
    </section>
  );
}

function NoticeItem({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  const look = LOOK[notice.severity] ?? LOOK.info;
  const Icon = look.icon;
  return (
    <div
      role={notice.severity === "critical" ? "alert" : "status"}
      className={cn("flex items-start gap-3 rounded-xl border p-4", look.box)}
    >
      <Icon aria-hidden="true" className={cn("mt-0.5 size-5 shrink-0", look.iconClass)} />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-ink">{notice.title}</p>
        {notice.body ? <p className="mt-1 text-sm whitespace-pre-line text-ink-muted">{notice.body}</p> : null}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label={`Close notice: ${notice.title}`}
        className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-ink-muted hover:text-ink"
      >
        <X aria-hidden="true" className="size-5" />
      </button>
    </div>
  );
}
