// 'Supported Apps & Devices' (spec §2 how-to-use): featured apps (the first as a large hero
// card, the others as normal cards), then every other app as a compact card; a loading state;
// 'No Apps Available' when there are none. Any app opens the download dialog.
import { ChevronRight, Download as DownloadIcon, Star } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import type { Download } from "@/shared/api";
import { buttonClasses } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { useDownloads } from "./api/use-downloads";
import { AppLogo } from "./app-logo";
import { appDevices, deviceLabel } from "./devices";
import { useDownloadDialog } from "./use-download-dialog";

export interface SupportedAppsProps {
  /** h3 inside the how-to-use section; h2 where it stands alone */
  headingLevel?: 2 | 3;
  /** show the link to the full downloads page */
  showDownloadsLink?: boolean;
}

export function SupportedApps({ headingLevel = 3, showDownloadsLink = true }: SupportedAppsProps) {
  const { apps, isLoading, isFallback } = useDownloads();
  const dialog = useDownloadDialog();
  const featured = apps.filter((app) => app.is_featured);
  const others = apps.filter((app) => !app.is_featured);
  const [hero, ...moreFeatured] = featured;
  const Heading = headingLevel === 2 ? "h2" : "h3";

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a prefetch hint only; the controls inside are buttons
    <div className="flex flex-col gap-8" data-testid="supported-apps" onPointerOver={dialog.preload} onFocus={dialog.preload}>
      <div className="flex flex-col items-center gap-2 text-center">
        <Heading id="supported-apps-heading" className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
          Supported Apps & Devices
        </Heading>
        <p className="max-w-2xl text-ink-muted">
          Install one of these players on the device you watch on. Tap an app for its download link, and we'll send you the setup steps.
        </p>
      </div>

      {isLoading ? (
        <AppsLoading first="h-56 w-full rounded-card" gap="gap-4" />
      ) : apps.length === 0 ? (
        <NoApps title="p" />
      ) : (
        <>
          {isFallback ? (
            <p role="status" className="text-center text-sm text-ink-subtle">
              We couldn't load the download links just now. Here are the apps we support; try again in a moment for links.
            </p>
          ) : null}
          {hero ? <HeroAppCard app={hero} onOpen={dialog.open} /> : null}
          {moreFeatured.length ? (
            <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="More featured apps">
              {moreFeatured.map((app) => (
                <li key={app.id}>
                  <FeaturedAppCard app={app} onOpen={dialog.open} />
                </li>
              ))}
            </ul>
          ) : null}
          {others.length ? (
            <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={featured.length ? "More apps" : "Apps"}>
              {others.map((app) => (
                <li key={app.id}>
                  <CompactAppCard app={app} onOpen={dialog.open} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}

      {showDownloadsLink ? (
        <div className="flex justify-center">
          <Link to="/downloads" className={buttonClasses({ variant: "secondary" })}>
            <DownloadIcon aria-hidden="true" />
            All apps by device
          </Link>
        </div>
      ) : null}
      {dialog.element}
    </div>
  );
}

/** The apps' loading skeleton: one block (`first`'s classes), then a row of three cards. */
export function AppsLoading({ first, gap }: { first: string; gap: "gap-3" | "gap-4" }) {
  return (
    <div className="flex flex-col gap-4" role="status" aria-live="polite">
      <span className="sr-only">Loading apps...</span>
      <Skeleton className={first} />
      <div className={cn("grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3", gap)}>
        <Skeleton className="h-20 rounded-card" />
        <Skeleton className="h-20 rounded-card" />
        <Skeleton className="h-20 rounded-card" />
      </div>
    </div>
  );
}

/** What shows when no app is listed; `title` is the line's element (a heading where the page has one). */
export function NoApps({ title: Title }: { title: "h2" | "p" }) {
  return (
    <div className="rounded-card border border-dashed border-line-strong bg-surface/60 p-10 text-center">
      <Title className="text-lg font-semibold text-ink">No Apps Available</Title>
      <p className="mt-2 text-sm text-ink-muted">
        We're updating our app list. Message us on WhatsApp and we'll tell you which app to install.
      </p>
    </div>
  );
}

export interface CardProps {
  app: Download;
  onOpen: (app: Download) => void;
}

function DeviceChips({ app, max }: { app: Download; max: number }) {
  const devices = appDevices(app);
  if (devices.length === 0) return null;
  const shown = devices.slice(0, max);
  return (
    <span className="flex flex-wrap gap-1.5">
      {shown.map((device) => (
        <span key={device} className="rounded-full bg-surface-overlay px-2.5 py-1 text-xs text-ink-muted ring-1 ring-line">
          {deviceLabel(device)}
        </span>
      ))}
      {devices.length > shown.length ? (
        <span className="rounded-full px-1.5 py-1 text-xs text-ink-subtle">+{devices.length - shown.length} more</span>
      ) : null}
    </span>
  );
}

/** An app card's button: it opens the app's dialog, described by the app's description where the card shows it. */
function appButton(app: Download, onOpen: (app: Download) => void, descriptionId?: string) {
  return {
    type: "button",
    "aria-haspopup": "dialog",
    "aria-describedby": descriptionId && app.description ? descriptionId : undefined,
    onClick: () => onOpen(app),
    "data-app": app.name,
  } as const;
}

const cardButton =
  "w-full text-left transition-[border-color,background-color,transform] duration-200 hover:-translate-y-0.5 motion-reduce:hover:translate-y-0";

/** The first featured app: the large hero card. */
function HeroAppCard({ app, onOpen }: CardProps) {
  const descriptionId = useId();
  const facts = [app.version ? `Version ${app.version}` : "", app.file_size].filter(Boolean).join(" · ");
  return (
    <button
      {...appButton(app, onOpen, descriptionId)}
      className={cn(
        cardButton,
        "relative isolate overflow-hidden rounded-card border border-accent/40 bg-surface p-6 shadow-2xl shadow-accent/10 hover:border-accent/70 sm:p-8",
      )}
    >
      <span
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_18rem_at_0%_0%,rgb(229_24_75/0.18),transparent_70%)]"
      />
      <span className="flex flex-col gap-6 md:flex-row md:items-center">
        <span className="flex min-w-0 flex-1 flex-col gap-4">
          <span className="flex items-center gap-4 sm:gap-5">
            <span className="sm:hidden">
              <AppLogo app={app} />
            </span>
            <span className="hidden sm:block">
              <AppLogo app={app} size="lg" />
            </span>
            <span className="flex min-w-0 flex-col gap-1.5">
              <span className="inline-flex w-fit items-center gap-1 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold tracking-wide text-white uppercase">
                <Star aria-hidden="true" className="size-3 fill-current" />
                Recommended
              </span>
              <span className="text-xl font-bold tracking-tight text-ink sm:text-2xl">{app.name}</span>
              {facts ? <span className="tabular text-sm text-ink-subtle">{facts}</span> : null}
            </span>
          </span>
          {app.description ? (
            <span id={descriptionId} className="block max-w-2xl text-ink-muted">
              {app.description}
            </span>
          ) : null}
          <DeviceChips app={app} max={4} />
        </span>
        <span className={buttonClasses({ className: "pointer-events-none shrink-0 self-stretch md:self-center" })}>
          <DownloadIcon aria-hidden="true" />
          Get the app
        </span>
      </span>
    </button>
  );
}

/** A featured app after the first. */
function FeaturedAppCard({ app, onOpen }: CardProps) {
  const descriptionId = useId();
  return (
    <button
      {...appButton(app, onOpen, descriptionId)}
      className={cn(cardButton, "flex h-full flex-col gap-4 rounded-card border border-line bg-surface p-6 hover:border-line-strong")}
    >
      <span className="flex items-center gap-4">
        <AppLogo app={app} />
        <span className="flex min-w-0 flex-col">
          <span className="text-lg font-semibold text-ink">{app.name}</span>
          {app.version ? <span className="tabular text-sm text-ink-subtle">Version {app.version}</span> : null}
        </span>
      </span>
      {app.description ? (
        <span id={descriptionId} className="line-clamp-3 text-sm text-ink-muted">
          {app.description}
        </span>
      ) : null}
      <DeviceChips app={app} max={3} />
    </button>
  );
}

/** Every other app: one compact row, with its devices (or, where the devices are the heading, its facts). */
export function CompactAppCard({ app, onOpen, detail = "devices" }: CardProps & { detail?: "devices" | "facts" }) {
  const devices = appDevices(app);
  const facts = [app.version ? `Version ${app.version}` : "", app.file_size].filter(Boolean).join(" · ");
  return (
    <button
      {...appButton(app, onOpen)}
      className={cn(
        cardButton,
        "flex min-h-20 items-center gap-4 rounded-card border border-line bg-surface p-4 hover:border-line-strong hover:bg-surface-raised",
      )}
    >
      <AppLogo app={app} size="sm" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="font-semibold text-ink">{app.name}</span>
        {detail === "facts" ? (
          facts ? (
            <span className="tabular text-sm text-ink-muted">{facts}</span>
          ) : null
        ) : devices.length ? (
          <span className="line-clamp-2 text-sm text-ink-muted">
            {devices.slice(0, 2).map(deviceLabel).join(", ")}
            {devices.length > 2 ? ` +${devices.length - 2}` : ""}
          </span>
        ) : null}
      </span>
      <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-ink-subtle" />
    </button>
  );
}
