import { Link } from "react-router";
import { STABILITY_TARGETS } from "@/shared/readiness";
import { buttonClasses } from "@/web/components/ui/button";
import { PageIntro } from "@/web/components/ui/page-intro";
import { StreamTestCard } from "./stream-test-card";

const { packetLoss, jitter, ping } = STABILITY_TARGETS;

const EXPLAINED = [
  {
    term: "Download speed",
    text: "How fast video reaches you. Each stream needs a steady share of it, so leave headroom when several people watch at once.",
  },
  {
    term: "Ping (latency)",
    text: `How long a request takes to reach our servers and come back. Under ${ping.under} ms is fine for streaming; ${ping.green} ms or less is great.`,
  },
  {
    term: "Jitter",
    text: `How much the ping varies from moment to moment. Under ${jitter.under} ms keeps live channels smooth; ${jitter.green} ms or less is great.`,
  },
  {
    term: "Packet loss (estimate)",
    text: `The share of small test requests that did not come back in time. Under ${packetLoss.under}% is the target; ${packetLoss.green}% or less is great.`,
  },
];

/** /stream-test: the connection speed test. */
export function StreamTestPage() {
  return (
    <PageIntro
      eyebrow="Stream test"
      title="Is your connection ready to stream?"
      description="The stream test measures your download speed, latency, jitter and packet loss against our servers, then tells you which picture quality your connection handles well."
    >
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)]">
        <StreamTestCard headingLevel={2} />
        <section aria-labelledby="numbers-heading">
          <h2 id="numbers-heading" className="text-xl font-semibold text-ink">
            What the numbers mean
          </h2>
          <dl className="mt-4 flex flex-col gap-5">
            {EXPLAINED.map((item) => (
              <div key={item.term}>
                <dt className="font-medium text-ink">{item.term}</dt>
                <dd className="mt-1 text-sm text-pretty text-ink-muted">{item.text}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-6 text-sm text-ink-subtle">
            Results depend on your Wi-Fi, the time of day and what else is using your line. For the truest reading, test on the device and
            network you'll stream on.
          </p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Link to="/pricing" className={buttonClasses({ variant: "outline" })}>
              See the packages
            </Link>
            <Link to="/technical-support" className={buttonClasses({ variant: "ghost" })}>
              Technical Support
            </Link>
          </div>
        </section>
      </div>
    </PageIntro>
  );
}
