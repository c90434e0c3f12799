// A generated portal password, shown once: the server keeps only its hash, so after this
// panel closes nobody can see it again (a reset makes a new one).
import { TriangleAlert } from "lucide-react";
import { CopyButton } from "@/web/components/ui/copy-button";

export function OneTimePassword({ username, password }: { username?: string; password: string }) {
  return (
    <div className="flex flex-col gap-4">
      {username ? (
        <div className="flex items-center justify-between gap-3 rounded-xl border border-line bg-surface-raised p-3">
          <div className="min-w-0">
            <p className="text-xs text-ink-subtle">Portal username</p>
            <p className="truncate font-mono text-ink">{username}</p>
          </div>
          <CopyButton value={username} label="Username" />
        </div>
      ) : null}
      <div className="flex items-center justify-between gap-3 rounded-xl border border-special/50 bg-special-soft/40 p-3">
        <div className="min-w-0">
          <p className="text-xs text-ink-subtle">Portal password</p>
          <p className="font-mono text-lg break-all text-ink" data-testid="one-time-password">
            {password}
          </p>
        </div>
        <CopyButton value={password} label="Password" />
      </div>
      <p role="note" className="flex gap-2 text-sm text-special-ink">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        This password is shown only once. Copy it now and send it to the client; after you close this, it can't be shown again (reset it to
        make a new one).
      </p>
    </div>
  );
}
