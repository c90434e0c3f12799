// The streaming line's login, with a copy button for each part (shown only to this client).
import { Eye, EyeOff, Tv } from "lucide-react";
import { type ReactNode, useState } from "react";
import type { ClientLine } from "@/shared/client-schemas";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { CopyButton } from "@/web/components/ui/copy-button";

export function LineDetails({ line }: { line: ClientLine }) {
  const [shown, setShown] = useState(false);
  const empty = !line.username && !line.password && !line.portal_url;
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="line-heading">
      <h2 id="line-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Tv aria-hidden="true" className="size-5 text-accent-ink" />
        Your streaming line
      </h2>
      {empty ? (
        <p className="mt-3 text-sm text-ink-muted">
          Your line details appear here as soon as we've set up your line. If you've been waiting a while, contact us and we'll sort it out.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-ink-muted">Enter these in your player app. Keep them to yourself: they're your subscription.</p>
          <dl className="mt-4 flex flex-col divide-y divide-line">
            {line.username ? <Row label="Line username" value={line.username} display={line.username} /> : null}
            {line.password ? (
              <Row
                label="Line password"
                value={line.password}
                display={shown ? line.password : "•".repeat(Math.min(12, line.password.length))}
                extra={
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setShown((s) => !s)}
                    aria-label={shown ? "Hide line password" : "Show line password"}
                  >
                    {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                  </Button>
                }
              />
            ) : null}
            {line.portal_url ? <Row label="Portal URL" value={line.portal_url} display={line.portal_url} /> : null}
          </dl>
        </>
      )}
    </Card>
  );
}

function Row({ label, value, display, extra }: { label: string; value: string; display: string; extra?: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <dt className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{label}</dt>
        <dd className="font-mono text-base break-all text-ink">{display}</dd>
      </div>
      <div className="flex shrink-0 gap-2">
        {extra}
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}
