// The subscriber's line (shown only to them): the player login (server URL, username, password),
// the M3U playlist and EPG links, each with a copy button, when the line runs to, and a QR code
// of the M3U link for TV apps. A sandbox line says plainly that it is a TEST LINE. Before the
// line exists, LinePending says it is being set up. A MAG box or Enigma2 receiver (issue 32) has no
// login to type: its card says where to point the box (the portal URL for MAG) and its MAC, with
// no M3U link or QR code. Lines on the panel offer self-service under it (line-actions.tsx).
import { CalendarClock, FlaskConical, Hourglass, Router, Tv } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import type { ClientLine } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { useRevealToggle } from "@/web/components/reveal-toggle";
import { Badge } from "@/web/components/ui/badge";
import { Card } from "@/web/components/ui/card";
import { CopyButton } from "@/web/components/ui/copy-button";
import { cn } from "@/web/lib/cn";
import { LineActions } from "./line-actions";

// The QR encoder is only fetched for a client with a line, after the portal has drawn.
const LineQrCode = lazy(() => import("./line-qr-code").then((m) => ({ default: m.LineQrCode })));

const dots = (text: string) => "•".repeat(Math.min(12, Math.max(6, text.length)));

/** A link with the line's password in it, as shown on screen: the password dotted out until asked. */
function maskPassword(url: string, password: string, shown: boolean): string {
  if (shown || !password) return url;
  return url.replace(`password=${encodeURIComponent(password)}`, `password=${dots(password)}`);
}

export function LineDetails({ line }: { line: ClientLine }) {
  return line.type === "mag" || line.type === "enigma2" ? <BoxLineDetails line={line} type={line.type} /> : <AppLineDetails line={line} />;
}

function AppLineDetails({ line }: { line: ClientLine }) {
  const [shown, toggle] = useRevealToggle("line password");
  const server = line.server_url || line.portal_url;
  const expires = formatDate(line.expires_at);
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6" aria-labelledby="line-heading" data-testid="line-details">
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="line-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Tv aria-hidden="true" className="size-5 text-accent-ink" />
            Your streaming line
          </h2>
          {line.is_test ? <Badge variant="warn">Test line</Badge> : null}
        </div>
        <p className="text-sm text-ink-muted">Enter these in your player app. Keep them to yourself: they're your subscription.</p>
      </div>

      {line.is_test ? (
        <TestLineNotice>
          This shop is running in test mode, so this login plays no channels. Once the shop is live, your real line's login shows here.
        </TestLineNotice>
      ) : null}

      <LineGroup title="Player login" hint="For apps that ask for a server, username and password (Xtream Codes login).">
        {server ? <Row label="Server URL" copyLabel="Server URL" value={server} display={server} /> : null}
        <Row label="Username" copyLabel="Line username" value={line.username} display={line.username} />
        <Row
          label="Password"
          copyLabel="Line password"
          value={line.password}
          display={shown ? line.password : dots(line.password)}
          extra={toggle}
        />
      </LineGroup>

      {line.m3u_url || line.epg_url ? (
        <LineGroup title="Playlist links" hint="For apps that take a playlist (M3U) link, and a TV guide (EPG) link.">
          {line.m3u_url ? (
            <Row
              label="M3U playlist link"
              copyLabel="M3U link"
              value={line.m3u_url}
              display={maskPassword(line.m3u_url, line.password, shown)}
              small
            />
          ) : null}
          {line.epg_url ? (
            <Row
              label="EPG (TV guide) link"
              copyLabel="EPG link"
              value={line.epg_url}
              display={maskPassword(line.epg_url, line.password, shown)}
              small
            />
          ) : null}
        </LineGroup>
      ) : null}

      <LineExpiry expires={expires} />

      {line.m3u_url ? (
        <div className="flex flex-col items-center gap-4 rounded-xl border border-line bg-surface-raised p-4 sm:flex-row sm:items-center">
          <Suspense fallback={<div aria-hidden="true" className="size-40 shrink-0 rounded-lg bg-surface-overlay" />}>
            <LineQrCode value={line.m3u_url} />
          </Suspense>
          <div className="flex min-w-0 flex-col gap-1 text-center sm:text-left">
            <h3 className="font-semibold text-ink">Scan on your TV</h3>
            <p className="text-sm text-ink-muted">
              TV apps that add a playlist by QR code can scan this: it holds your M3U link, login included, so show it to nobody else.
            </p>
          </div>
        </div>
      ) : null}
      <LineActions line={line} />
    </Card>
  );
}

const BOX_WORDS = {
  mag: { title: "Your MAG box", what: "box" },
  enigma2: { title: "Your Enigma2 receiver", what: "receiver" },
} as const;

/** A MAG box or Enigma2 receiver: where the box connects and its MAC, no login and no playlist link. */
function BoxLineDetails({ line, type }: { line: ClientLine; type: "mag" | "enigma2" }) {
  const words = BOX_WORDS[type];
  const expires = formatDate(line.expires_at);
  const server = type === "mag" ? line.portal_url : line.server_url || line.portal_url;
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6" aria-labelledby="line-heading" data-testid="line-details" data-line-type={type}>
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="line-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
            <Router aria-hidden="true" className="size-5 text-accent-ink" />
            {words.title}
          </h2>
          {line.is_test ? <Badge variant="warn">Test line</Badge> : null}
        </div>
        <p className="text-sm text-ink-muted">Your {words.what} connects by its MAC address: there is no username or password to type.</p>
      </div>

      {line.is_test ? (
        <TestLineNotice>
          This shop is running in test mode, so this line plays no channels. Once the shop is live, your real line's details show here.
        </TestLineNotice>
      ) : null}

      {type === "mag" ? (
        <LineGroup title="Set up your box" hint="Enter the portal URL on the box once; it signs in by its MAC address from then on.">
          {server ? <Row label="Portal URL" copyLabel="Portal URL" value={server} display={server} /> : null}
          <Row label="MAC address" copyLabel="MAC address" value={line.mac} display={line.mac} />
        </LineGroup>
      ) : (
        <LineGroup title="Your receiver" hint="The server your receiver connects to, and the MAC address your line is set up for.">
          {server ? <Row label="Server URL" copyLabel="Server URL" value={server} display={server} /> : null}
          <Row label="MAC address" copyLabel="MAC address" value={line.mac} display={line.mac} />
        </LineGroup>
      )}

      {type === "mag" ? (
        <ol className="flex list-decimal flex-col gap-1.5 pl-5 text-sm text-ink-muted" data-testid="mag-steps">
          <li>On the box, open Settings, then Servers, then Portals.</li>
          <li>Set Portal 1 URL to the portal URL above.</li>
          <li>Save, then restart the box.</li>
        </ol>
      ) : (
        <p className="text-sm text-ink-muted" data-testid="enigma2-steps">
          Your receiver loads the channel list from this server for its MAC address. Chat to us on WhatsApp if you need help loading it.
        </p>
      )}

      <LineExpiry expires={expires} />
      <LineActions line={line} />
    </Card>
  );
}

function TestLineNotice({ children }: { children: ReactNode }) {
  return (
    <p
      role="note"
      data-testid="test-line-notice"
      className="flex items-start gap-3 rounded-xl border border-warn/50 bg-warn/10 p-3 text-sm text-ink"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warn" />
      <span>
        <span className="font-bold">TEST LINE.</span> {children}
      </span>
    </p>
  );
}

function LineExpiry({ expires }: { expires: string }) {
  return (
    <p className="flex items-center gap-2 text-sm text-ink-muted" data-testid="line-expiry">
      <CalendarClock aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />
      {expires ? (
        <span>
          Your line runs until <span className="font-semibold text-ink">{expires}</span>.
        </span>
      ) : (
        "Your line's end date shows here once the panel reports it."
      )}
    </p>
  );
}

/** Paid or on trial, but the panel has not made the line yet (it usually takes seconds). */
export function LinePending() {
  return (
    <Card className="flex items-start gap-3 p-5 sm:p-6" aria-labelledby="line-heading" data-testid="line-pending">
      <Hourglass aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-ink" />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="line-heading" className="text-lg font-semibold text-ink">
          Your streaming line
        </h2>
        <p className="text-ink-muted">Your line is being set up — we'll send your login the moment it's ready.</p>
      </div>
    </Card>
  );
}

function LineGroup({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <section className="flex flex-col" aria-label={title}>
      <h3 className="text-sm font-semibold text-ink">{title}</h3>
      <p className="text-xs text-ink-subtle">{hint}</p>
      <dl className="mt-1 flex flex-col divide-y divide-line">{children}</dl>
    </section>
  );
}

function Row({
  label,
  copyLabel,
  value,
  display,
  extra,
  small,
}: {
  label: string;
  copyLabel: string;
  value: string;
  display: string;
  extra?: ReactNode;
  small?: boolean;
}) {
  return (
    // dt and dd straight inside the row (as a definition list wants), laid out as a grid: the
    // label over the value on the left, the buttons beside both on the right
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 py-3">
      <dt className="col-start-1 text-xs font-semibold tracking-wide text-ink-muted uppercase">{label}</dt>
      <dd className={cn("col-start-1 font-mono break-all text-ink", small ? "text-xs sm:text-sm" : "text-sm sm:text-base")}>{display}</dd>
      <dd className="col-start-2 row-span-2 row-start-1 flex items-center gap-1 sm:gap-2">
        {extra}
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}
