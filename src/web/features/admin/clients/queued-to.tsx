// Where a client's link to choose a password (or a renewal link) was queued, masked: the owner is
// never handed a password to pass on, and is told only what happened, "queued", not "sent".
import { Send } from "lucide-react";
import type { QueuedTo } from "@/shared/business-schemas";

const CHANNEL_WORDS = { whatsapp: "WhatsApp", email: "e-mail" } as const;

/** "WhatsApp ending 4567 and e-mail j***@gmail.com" */
export function queuedToWords(targets: readonly QueuedTo[]): string {
  const places = targets.map((t) => `${CHANNEL_WORDS[t.channel]} ${t.hint}`);
  return places.length > 1 ? `${places.slice(0, -1).join(", ")} and ${places[places.length - 1]}` : (places[0] ?? "");
}

export function QueuedToNote({ what, targets, username }: { what: string; targets: readonly QueuedTo[]; username?: string }) {
  return (
    <div className="flex flex-col gap-3">
      {username ? (
        <p className="rounded-xl border border-line bg-surface-raised p-3 text-sm text-ink-muted">
          Portal username:{" "}
          <span className="font-mono text-ink" data-testid="portal-username">
            {username}
          </span>
        </p>
      ) : null}
      <p role="status" className="flex gap-2 rounded-xl border border-line bg-surface-raised p-3 text-sm text-ink" data-testid="queued-to">
        <Send aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-ink" />
        <span>
          {targets.length
            ? `${what} was queued to ${queuedToWords(targets)}.`
            : `${what} could not be queued: they have no WhatsApp number or e-mail address.`}
          {targets.some((t) => t.channel === "whatsapp")
            ? ' Without the WhatsApp Cloud API, the WhatsApp message waits for you under "To send on WhatsApp" on the dashboard.'
            : ""}
        </span>
      </p>
    </div>
  );
}
