// /setup-guide: device-by-device setup. A picker lists every device of the order form's list;
// ?device= preselects one (the client portal links here with the client's own device).
import { Apple, Box, Flame, Laptop, type LucideIcon, MonitorSmartphone, Smartphone, Tablet, Tv, TvMinimal } from "lucide-react";
import { useRef } from "react";
import { Link, useSearchParams } from "react-router";
import type { DeviceValue } from "@/shared/options";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { scrollBehavior } from "@/web/lib/scroll";
import { useAppsForDevice } from "./api/use-apps-for-device";
import { ContactButtons, greeting } from "./contact-buttons";
import { DEVICE_GUIDES, type DeviceGuide, findGuide } from "./device-guides";

const ICONS: Record<DeviceValue, LucideIcon> = {
  android: Smartphone,
  ios: Tablet,
  "apple-tv": Apple,
  "smart-tv-android": Tv,
  "smart-tv-samsung": TvMinimal,
  firestick: Flame,
  "android-box": Box,
  "non-google-certified": MonitorSmartphone,
  pc: Laptop,
};

export function SetupGuidePage() {
  const [params, setParams] = useSearchParams();
  const guide = findGuide(params.get("device"));
  const guideRef = useRef<HTMLElement>(null);

  const choose = (device: DeviceValue) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set("device", device);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    // On a phone the guide sits below the picker: bring it into view once it has rendered.
    requestAnimationFrame(() => {
      guideRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: "start" });
    });
  };

  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-3xl flex-col gap-4">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">Setup guide</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">Set up your device</h1>
        <p className="text-lg text-pretty text-ink-muted">
          Choose what you'll watch on and follow the steps. You'll need the login details we sent you on WhatsApp or by e-mail.
        </p>
      </div>

      <fieldset className="mt-10">
        <legend className="mb-4 text-lg font-semibold text-ink">Which device are you setting up?</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {DEVICE_GUIDES.map(({ device, label }) => {
            const Icon = ICONS[device];
            const selected = guide?.device === device;
            return (
              <label
                key={device}
                className={cn(
                  "flex min-h-14 cursor-pointer items-center gap-3 rounded-xl border px-3 py-2.5 text-sm font-medium transition-colors sm:min-h-20 sm:flex-col sm:items-start sm:justify-between sm:gap-2 sm:p-3.5",
                  "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-ink",
                  selected
                    ? "border-accent bg-accent-soft text-ink"
                    : "border-line bg-surface text-ink-muted hover:border-line-strong hover:text-ink",
                )}
              >
                <input type="radio" name="device" value={device} checked={selected} onChange={() => choose(device)} className="sr-only" />
                <Icon aria-hidden="true" className={cn("size-5 shrink-0 sm:size-6", selected ? "text-accent-ink" : "text-ink-subtle")} />
                <span className="text-balance">{label}</span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <section ref={guideRef} aria-label="Setup steps" className="mt-10 scroll-mt-24">
        {guide ? <Guide guide={guide} /> : <NoDeviceYet />}
      </section>
    </Container>
  );
}

function NoDeviceYet() {
  return (
    <div className="max-w-3xl rounded-card border border-dashed border-line-strong p-6 sm:p-8">
      <h2 className="text-xl font-semibold text-ink">Setup in three steps</h2>
      <ol className="mt-4 flex list-decimal flex-col gap-2 pl-6 text-ink-muted marker:font-semibold marker:text-accent-ink">
        <li>Install a player app on your device.</li>
        <li>Sign in with the username, password and server address we send you.</li>
        <li>Pick a channel. If it buffers, run the stream test.</li>
      </ol>
      <p className="mt-4 text-ink-muted">Choose your device above for the exact steps.</p>
    </div>
  );
}

function Guide({ guide }: { guide: DeviceGuide }) {
  const { apps, isPending } = useAppsForDevice(guide.device);
  return (
    <article data-guide={guide.device} className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="flex flex-col gap-6 rounded-card border border-line bg-surface p-5 sm:p-8">
        <header className="flex flex-col gap-1">
          <h2 className="text-2xl font-bold tracking-tight text-ink">{guide.label}</h2>
          <p className="text-ink-muted">{guide.intro}</p>
        </header>
        <ol className="flex flex-col gap-4">
          {guide.steps.map((step, index) => (
            <li key={step} className="flex gap-3 sm:gap-4">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-bold text-accent-ink tabular"
              >
                {index + 1}
              </span>
              <p className="pt-1 text-pretty text-ink">
                <span className="sr-only">Step {index + 1}: </span>
                {step}
              </p>
            </li>
          ))}
        </ol>
        {guide.tips.length ? (
          <div className="rounded-xl bg-surface-raised p-4">
            <h3 className="text-sm font-semibold text-ink">Tips</h3>
            <ul className="mt-2 flex list-disc flex-col gap-1.5 pl-5 text-sm text-ink-muted marker:text-accent-ink">
              {guide.tips.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>

      <aside className="flex flex-col gap-6">
        <div className="rounded-card border border-line bg-surface p-5">
          <h3 className="font-semibold text-ink">Apps for this device</h3>
          {isPending ? (
            <Skeleton className="mt-3 h-10" />
          ) : apps.length ? (
            <ul className="mt-3 flex flex-col gap-2">
              {apps.map((app) => (
                <li key={app.id} className="flex items-center gap-3">
                  {app.logo_url ? (
                    <img src={app.logo_url} alt="" width={32} height={32} className="size-8 rounded-lg" loading="lazy" />
                  ) : null}
                  <span className="text-ink">{app.name}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-ink-muted">Ask us on WhatsApp which app to use on this device.</p>
          )}
          <Link
            to="/downloads"
            className="mt-4 inline-flex min-h-11 items-center font-medium text-accent-ink underline-offset-4 hover:underline"
          >
            Get the apps on the Downloads page
          </Link>
        </div>
        <div className="rounded-card border border-line bg-surface p-5">
          <h3 className="font-semibold text-ink">Before you watch</h3>
          <p className="mt-2 text-sm text-ink-muted">
            Run the stream test on this device: about 10 Mbps is enough for SD, 25 Mbps or more for Full HD.
          </p>
          <Link
            to="/stream-test"
            className="mt-2 inline-flex min-h-11 items-center font-medium text-accent-ink underline-offset-4 hover:underline"
          >
            Run the stream test
          </Link>
        </div>
        <div className="rounded-card border border-line bg-surface-raised p-5">
          <h3 className="font-semibold text-ink">Stuck on a step?</h3>
          <p className="mt-2 mb-4 text-sm text-ink-muted">Send us a photo of the screen and we'll guide you through it.</p>
          <ContactButtons message={(name) => `${greeting(name)}I'm setting up on my ${guide.label} and I'm stuck.`} />
        </div>
      </aside>
    </article>
  );
}
