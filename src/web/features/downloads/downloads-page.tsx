// /downloads: every player app, grouped by the devices it runs on; each opens the download
// dialog (download link, QR data, instructions by WhatsApp or e-mail).
import { PageIntro } from "@/web/components/ui/page-intro";
import { scrollToSection } from "@/web/lib/scroll";
import { useDownloads } from "./api/use-downloads";
import { groupByDevice } from "./devices";
import { AppsLoading, CompactAppCard, NoApps } from "./supported-apps";
import { useDownloadDialog } from "./use-download-dialog";

export function DownloadsPage() {
  const { apps, isLoading, isFallback } = useDownloads();
  const dialog = useDownloadDialog();
  const groups = groupByDevice(apps);

  return (
    <PageIntro
      eyebrow="Downloads"
      title="Player apps for your devices"
      description="Find your device below and pick an app. Tap it for the download link, and we'll send the setup steps to your WhatsApp or e-mail."
      links={[
        { to: "/setup-guide", label: "Setup Guide" },
        { to: "/how-to-use", label: "How it works" },
      ]}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a prefetch hint only; the controls inside are buttons */}
      <div onPointerOver={dialog.preload} onFocus={dialog.preload}>
        {isLoading ? (
          <AppsLoading first="h-8 w-48" gap="gap-3" />
        ) : apps.length === 0 ? (
          <NoApps title="h2" />
        ) : (
          <div className="flex flex-col gap-12">
            {isFallback ? (
              <p role="status" className="text-sm text-ink-subtle">
                We couldn't load the download links just now. Here are the apps we support; try again in a moment for links.
              </p>
            ) : null}
            <nav aria-label="Devices">
              <ul className="-mx-4 flex gap-2 overflow-x-auto px-4 py-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
                {groups.map((group) => (
                  <li key={group.key} className="shrink-0">
                    <button
                      type="button"
                      onClick={() => scrollToSection(`device-${group.key}`)}
                      className="inline-flex min-h-11 items-center gap-2 rounded-full bg-surface-raised px-4 text-sm whitespace-nowrap text-ink ring-1 ring-line transition-colors hover:bg-surface-overlay"
                    >
                      {group.label}
                      <span className="tabular rounded-full bg-surface-overlay px-2 text-xs text-ink-muted">{group.apps.length}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </nav>
            {groups.map((group) => (
              <section key={group.key} id={`device-${group.key}`} aria-labelledby={`device-${group.key}-heading`} className="scroll-mt-24">
                <h2 id={`device-${group.key}-heading`} className="mb-4 text-xl font-bold tracking-tight text-ink">
                  {group.label}
                </h2>
                <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
                  {group.apps.map((app) => (
                    <li key={app.id}>
                      <CompactAppCard app={app} onOpen={dialog.open} detail="facts" />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </div>
      {dialog.element}
    </PageIntro>
  );
}
