// The stream test card (spec §2): Start Stream Test, progress with percentage and phase label,
// then the result tiles, the readiness verdict, the recommended quality beside the displayed
// requirements, the stability targets, and Share via WhatsApp / Test Again / Use this speed.
import { Activity, ArrowDownToLine, Check, Gauge, MessageCircle, RotateCcw, Timer, TriangleAlert, Waves } from "lucide-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import {
  isStabilityGreen,
  meetsStabilityTarget,
  QUALITY_REQUIREMENTS,
  type QualityRequirement,
  READINESS_LABELS,
  type Readiness,
  STABILITY_TARGETS,
  STREAM_TEST_PHASES,
  type StabilityMetric,
  type StreamTestResult,
} from "@/shared/readiness";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { useBranding } from "@/web/lib/queries/branding";
import { DATA_BUDGET_MB, type RunOptions } from "./measure";
import { formatMbps, formatMs, formatPercent, shareLink, shareText, speedForOrder } from "./share";
import { sendSpeedToOrder } from "./speed-event";
import { type StreamTestState, useStreamTest } from "./use-stream-test";

type Tone = "ok" | "good" | "warn" | "bad";

const TONE_TEXT: Record<Tone, string> = {
  ok: "text-ok",
  good: "text-emerald-300",
  warn: "text-warn",
  bad: "text-bad",
};
const TONE_PANEL: Record<Tone, string> = {
  ok: "bg-ok/10 ring-ok/30",
  good: "bg-emerald-400/10 ring-emerald-300/30",
  warn: "bg-warn/10 ring-warn/30",
  bad: "bg-bad/10 ring-bad/30",
};

export const READINESS_TONE: Record<Readiness, Tone> = { excellent: "ok", good: "good", fair: "warn", poor: "bad" };

const READINESS_SUMMARY: Record<Readiness, string> = {
  excellent: "Your connection is ready for smooth streaming, up to 4K where the channel offers it.",
  good: "Your connection handles streaming well. Busy evenings may call for a step down in quality.",
  fair: "Streaming should work, best at a lower quality. Close other downloads while you watch.",
  poor: "Expect buffering on this connection, especially on live channels. Try again closer to your router, or on another network.",
};

/** Green at the spec's green mark, amber while under the target, red beyond it. */
function stabilityTone(metric: StabilityMetric, value: number): Tone {
  if (isStabilityGreen(metric, value)) return "ok";
  return meetsStabilityTarget(metric, value) ? "warn" : "bad";
}

export interface StreamTestCardProps {
  className?: string;
  /** 'h2' on the stream test page, 'h3' inside the landing's section */
  headingLevel?: 2 | 3;
  /** the measurement engine (tests pass their own) */
  run?: (options: RunOptions) => Promise<StreamTestResult>;
}

export function StreamTestCard({ className, headingLevel = 3, run }: StreamTestCardProps) {
  const { state, start } = useStreamTest(run);
  const Heading = headingLevel === 2 ? "h2" : "h3";

  return (
    <div className={cn("rounded-card border border-line bg-surface p-5 shadow-xl shadow-black/20 sm:p-8", className)}>
      <div className="flex items-center gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-ink">
          <Gauge aria-hidden="true" className="size-6" />
        </span>
        <div>
          <Heading className="text-lg font-semibold text-ink sm:text-xl">Stream test</Heading>
          <p className="text-sm text-ink-muted">Download speed, latency, jitter and packet loss, measured against our servers.</p>
        </div>
      </div>

      <div className="mt-6" aria-live="polite">
        {state.status === "idle" ? <Idle onStart={start} /> : null}
        {state.status === "running" ? <Running state={state} /> : null}
        {state.status === "failed" ? <Failed onRetry={start} /> : null}
        {state.status === "complete" ? <Complete result={state.result} testedAt={state.testedAt} onRetry={start} /> : null}
      </div>

      <Requirements recommended={state.status === "complete" ? state.result.recommendedQuality : null} />
    </div>
  );
}

function Idle({ onStart }: { onStart: () => void }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <p className="text-ink-muted">
        Takes 10 to 15 seconds. Run it on the network you'll stream on, with other downloads paused, for a true reading.
      </p>
      <Button size="lg" onClick={onStart} className="w-full sm:w-auto">
        <Activity aria-hidden="true" />
        Start Stream Test
      </Button>
      <p className="text-xs text-ink-subtle">On mobile data the test uses up to about {DATA_BUDGET_MB} MB.</p>
    </div>
  );
}

function Running({ state }: { state: Extract<StreamTestState, { status: "running" }> }) {
  const current = STREAM_TEST_PHASES.findIndex((p) => p.key === state.phase);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-baseline justify-between gap-4">
        <p className="font-medium text-ink">{state.label}</p>
        <p className="tabular text-2xl font-bold text-ink">{state.progress}%</p>
      </div>
      <div
        role="progressbar"
        aria-label="Stream test progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={state.progress}
        aria-valuetext={`${state.progress}%: ${state.label}`}
        className="h-3 overflow-hidden rounded-full bg-surface-overlay"
      >
        <div className="h-full rounded-full bg-accent transition-[width] duration-300 ease-out" style={{ width: `${state.progress}%` }} />
      </div>
      <ol className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        {STREAM_TEST_PHASES.map((phase, index) => (
          <li
            key={phase.key}
            className={cn("flex items-center gap-2", index < current ? "text-ok" : index === current ? "text-ink" : "text-ink-subtle")}
          >
            {index < current ? (
              <Check aria-hidden="true" className="size-4" />
            ) : (
              <span
                aria-hidden="true"
                className={cn("size-2 rounded-full", index === current ? "animate-pulse bg-accent" : "bg-line-strong")}
              />
            )}
            {PHASE_SHORT[phase.key]}
            <span className="sr-only">{index < current ? " (done)" : index === current ? " (in progress)" : ""}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

const PHASE_SHORT: Record<string, string> = { download: "Download", latency: "Latency", jitter: "Jitter", packetLoss: "Packet loss" };

function Failed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <p className="flex items-start gap-2 text-ink">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warn" />
        The test could not finish. Please check your connection and try again.
      </p>
      <Button onClick={onRetry} className="w-full sm:w-auto">
        <RotateCcw aria-hidden="true" />
        Test Again
      </Button>
    </div>
  );
}

function Complete({ result, testedAt, onRetry }: { result: StreamTestResult; testedAt: Date; onRetry: () => void }) {
  const { branding } = useBranding();
  const navigate = useNavigate();
  const tone = READINESS_TONE[result.iptvReadiness];
  const link = shareLink(
    shareText(result, { testedAt, companyName: branding.companyName, pageUrl: `${window.location.origin}/stream-test` }),
  );
  const orderWithSpeed = () => {
    const speed = speedForOrder(result);
    if (!sendSpeedToOrder(speed)) navigate(`/order?speed=${encodeURIComponent(speed)}`);
  };

  return (
    <div className="flex flex-col gap-6">
      <div className={cn("flex flex-col gap-1 rounded-2xl p-4 ring-1 sm:p-5", TONE_PANEL[tone])}>
        <p className="text-sm text-ink-muted">IPTV readiness</p>
        <p className={cn("text-2xl font-bold", TONE_TEXT[tone])} data-testid="stream-readiness">
          {READINESS_LABELS[result.iptvReadiness]}
        </p>
        <p className="text-sm text-ink-muted">{READINESS_SUMMARY[result.iptvReadiness]}</p>
        <p className="mt-2 text-ink">
          Recommended quality: <strong className="font-semibold">{result.recommendedQuality}</strong>
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3">
        <Tile
          icon={<ArrowDownToLine aria-hidden="true" />}
          label="Download"
          value={formatMbps(result.download)}
          unit="Mbps"
          testId="stream-download"
        />
        <Tile
          icon={<Timer aria-hidden="true" />}
          label="Ping"
          value={formatMs(result.ping)}
          unit="ms"
          tone={stabilityTone("ping", result.ping)}
        />
        <Tile
          icon={<Waves aria-hidden="true" />}
          label="Jitter"
          value={formatMs(result.jitter)}
          unit="ms"
          tone={stabilityTone("jitter", result.jitter)}
        />
        <Tile
          icon={<Activity aria-hidden="true" />}
          label="Packet loss"
          note="estimate"
          value={formatPercent(result.packetLoss)}
          unit="%"
          tone={stabilityTone("packetLoss", result.packetLoss)}
        />
      </dl>

      <Stability result={result} />

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Button onClick={orderWithSpeed} className="w-full sm:w-auto">
          Use this speed in my order
        </Button>
        {isValidWhatsAppLink(link) ? (
          <a
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses({ variant: "outline", className: "w-full sm:w-auto" })}
          >
            <MessageCircle aria-hidden="true" />
            Share via WhatsApp
          </a>
        ) : null}
        <Button variant="ghost" onClick={onRetry} className="w-full sm:w-auto">
          <RotateCcw aria-hidden="true" />
          Test Again
        </Button>
      </div>
    </div>
  );
}

function Tile({
  icon,
  label,
  note,
  value,
  unit,
  tone,
  testId,
}: {
  icon: ReactNode;
  label: string;
  note?: string;
  value: string;
  unit: string;
  tone?: Tone;
  testId?: string;
}) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl bg-surface-raised p-4 ring-1 ring-line">
      <dt className="flex flex-wrap items-center gap-x-1.5 text-sm text-ink-muted [&_svg]:size-4">
        {icon}
        {label}
        {note ? <span className="text-xs text-ink-subtle">({note})</span> : null}
      </dt>
      <dd className={cn("tabular text-2xl font-bold sm:text-3xl", tone ? TONE_TEXT[tone] : "text-ink")}>
        <span data-testid={testId}>{value}</span>
        <span className="ml-1 text-sm font-medium text-ink-muted">{unit}</span>
      </dd>
    </div>
  );
}

const STABILITY_ORDER: StabilityMetric[] = ["packetLoss", "jitter", "ping"];
const METRIC_VALUE: Record<StabilityMetric, (r: StreamTestResult) => number> = {
  packetLoss: (r) => r.packetLoss,
  jitter: (r) => r.jitter,
  ping: (r) => r.ping,
};

/** Spec §9 stability targets: loss under 1 %, jitter under 30 ms, latency under 150 ms. */
function Stability({ result }: { result: StreamTestResult }) {
  return (
    <div>
      <p className="text-sm font-semibold text-ink">Stability targets</p>
      <ul className="mt-2 flex flex-col gap-1.5 text-sm">
        {STABILITY_ORDER.map((metric) => {
          const target = STABILITY_TARGETS[metric];
          const value = METRIC_VALUE[metric](result);
          const tone = stabilityTone(metric, value);
          const verdict = tone === "ok" ? "great" : tone === "warn" ? "within target" : "above target";
          return (
            <li key={metric} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className={cn("size-2.5 rounded-full", tone === "ok" ? "bg-ok" : tone === "warn" ? "bg-warn" : "bg-bad")}
              />
              <span className="text-ink-muted">
                {target.label} under {target.under}
                {target.unit === "%" ? "%" : ` ${target.unit}`}:
              </span>
              <span className={cn("tabular font-medium", TONE_TEXT[tone])}>{verdict}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function requirementSpeed(r: QualityRequirement): string {
  return r.max === null ? `${r.min}+ Mbps` : `${r.min}-${r.max} Mbps`;
}

/** Spec §9 displayed requirements, the recommended quality marked. */
function Requirements({ recommended }: { recommended: string | null }) {
  return (
    <div className="mt-8 border-t border-line pt-6">
      <p className="text-sm font-semibold text-ink">Speed you need</p>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {QUALITY_REQUIREMENTS.map((r) => {
          const isRecommended = r.label === recommended;
          return (
            <li
              key={r.label}
              className={cn(
                "flex flex-col gap-0.5 rounded-xl p-3 ring-1",
                isRecommended ? "bg-accent-soft ring-accent-ink/50" : "bg-surface-raised ring-line",
              )}
            >
              <span className="flex items-center justify-between gap-2 text-sm text-ink-muted">
                {r.label}
                {isRecommended ? <span className="text-xs font-semibold text-accent-ink">Recommended</span> : null}
              </span>
              <span className="tabular font-bold text-ink">{requirementSpeed(r)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
