// The player apps, those made for the client's device first, each with its install guide.
import { Download, Smartphone } from "lucide-react";
import type { ClientApp } from "@/shared/client-schemas";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { useApps } from "../api/get-apps";
import { useDownloadUrl } from "../api/get-download-url";

export function AppsSection({ deviceLabel }: { deviceLabel: string }) {
  const apps = useApps();
  const list = apps.data ?? [];
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="apps-heading">
      <h2 id="apps-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Smartphone aria-hidden="true" className="size-5 text-accent-ink" />
        Player apps
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        {deviceLabel ? `Apps for your ${deviceLabel} come first.` : "Pick the app for the device you watch on."} Open the install guide for
        step-by-step help.
      </p>
      {apps.isPending ? (
        <div className="mt-4 flex flex-col gap-3" aria-busy="true">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : list.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">{apps.isError ? "We couldn't load the apps just now." : "No apps are listed yet."}</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {list.map((app) => (
            <AppItem key={app.id} app={app} deviceLabel={deviceLabel} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function AppItem({ app, deviceLabel }: { app: ClientApp; deviceLabel: string }) {
  const download = useDownloadUrl();
  const start = async () => {
    try {
      const { url } = await download.mutateAsync(app.id);
      toast.success("Download Started");
      window.location.assign(url);
    } catch {
      toast.error("Download Error", { description: "Failed to start download. Please try again." });
    }
  };
  const meta = [app.version ? `v${app.version}` : "", app.file_size].filter(Boolean).join(" · ");
  return (
    <li className="rounded-xl border border-line bg-surface-raised p-4">
      <div className="flex items-start gap-3">
        {app.logo_url ? (
          <img src={app.logo_url} alt="" width={40} height={40} loading="lazy" className="size-10 shrink-0 rounded-lg object-contain" />
        ) : (
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-surface-overlay text-ink-muted">
            <Smartphone aria-hidden="true" className="size-5" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-ink">{app.name}</h3>
            {app.for_your_device ? <Badge variant="ok">{deviceLabel ? `For your ${deviceLabel}` : "For your device"}</Badge> : null}
          </div>
          {meta ? <p className="text-xs text-ink-subtle">{meta}</p> : null}
          {app.description ? <p className="mt-1 text-sm text-ink-muted">{app.description}</p> : null}
        </div>
      </div>
      <div className="mt-3 flex flex-col gap-3">
        {app.steps.length ? (
          <details className="group rounded-lg border border-line bg-surface px-3">
            <summary className="flex min-h-11 cursor-pointer items-center text-sm font-semibold text-ink">Install guide</summary>
            <ol className="list-decimal space-y-1 pb-3 pl-5 text-sm text-ink-muted">
              {app.steps.map((step, index) => (
                <li key={index}>{step}</li>
              ))}
            </ol>
          </details>
        ) : null}
        {app.download_url ? (
          <Button variant="secondary" size="sm" onClick={start} disabled={download.isPending} className="self-start">
            <Download aria-hidden="true" />
            {download.isPending ? "Starting..." : `Download ${app.name}`}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
