// The thread's "Resend line details" (issue 26): queues the client's line login again (server,
// username, password, M3U and EPG links, portal, setup guide) through the outbox, once per click —
// the click's Idempotency-Key is kept until the server has answered, so tapping again after a
// dropped connection queues nothing twice. What it says is the truth, and stays true: where each
// message was queued (masked) and its state now — the WhatsApp one read live from the open thread
// (queued, sent, delivered, read, failed, or waiting for the owner under "To send on WhatsApp").
import { KeyRound } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import type { InboxMessage, LineDetailsQueued, LineDetailsResent } from "@/shared/api";
import { Button } from "@/web/components/ui/button";
import { ApiError } from "@/web/lib/api";
import { StatusBadge } from "../components/status-badge";
import { useResendLineDetails } from "./api/inbox-api";

const CHANNEL_WORDS = { whatsapp: "WhatsApp", email: "E-mail" } as const;

/** A queued message's state in words: the Cloud API's last word when there is one, else the outbox's. */
export function lineDetailsState(row: Pick<LineDetailsQueued, "status" | "delivery_status">): string {
  if (row.delivery_status === "failed" || row.status === "failed") return "failed";
  if (row.delivery_status) return row.delivery_status;
  if (row.status === "pending") return "queued";
  return row.status;
}

export function ResendLineDetails({ number, messages }: { number: string; messages: InboxMessage[] }) {
  const resend = useResendLineDetails(number);
  const key = useRef<string | null>(null);
  const [answer, setAnswer] = useState<LineDetailsResent | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const click = async () => {
    setRefusal(null);
    // A new click gets a new key; a click after a failure with no answer reuses it.
    key.current ??= crypto.randomUUID();
    try {
      setAnswer(await resend.mutateAsync(key.current));
      key.current = null;
    } catch (error) {
      const answered = error instanceof ApiError && error.status !== 0;
      if (answered) key.current = null;
      setAnswer(null);
      setRefusal(
        error instanceof ApiError && error.status !== 0
          ? error.message
          : "The line details could not be queued: the connection failed. Tap again (nothing is sent twice).",
      );
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" size="sm" className="justify-start" onClick={click} disabled={resend.isPending}>
        <KeyRound aria-hidden="true" />
        {resend.isPending ? "Queuing..." : "Resend line details"}
      </Button>
      {refusal ? (
        <p role="alert" className="rounded-xl border border-bad/40 bg-bad/10 p-3 text-xs text-bad">
          {refusal}
        </p>
      ) : null}
      {answer ? <Queued answer={answer} messages={messages} /> : null}
    </div>
  );
}

function Queued({ answer, messages }: { answer: LineDetailsResent; messages: InboxMessage[] }) {
  // The WhatsApp row as the open thread has it now (the change feed keeps the thread current).
  const live = (row: LineDetailsQueued): LineDetailsQueued & { error?: string | null } => {
    const shown = messages.find((m) => m.source === "outbox" && m.id === row.id);
    return shown ? { ...row, status: shown.status ?? row.status, delivery_status: shown.delivery_status, error: shown.error } : row;
  };
  const rows = answer.queued.map(live);
  return (
    <div role="status" className="flex flex-col gap-2 rounded-xl border border-line bg-surface-raised p-3 text-xs text-ink">
      <p>{answer.replayed ? "These line details were already queued by this tap:" : "Line details queued:"}</p>
      <ul className="flex flex-col gap-1.5" data-testid="line-details-queued">
        {rows.map((row) => {
          const state = lineDetailsState(row);
          return (
            <li key={row.id} className="flex flex-col gap-1">
              <span className="flex flex-wrap items-center gap-2">
                <span>
                  {CHANNEL_WORDS[row.channel]} {row.hint}
                </span>
                <StatusBadge status={state} />
              </span>
              {row.channel === "whatsapp" && state === "owner" ? (
                <span className="text-ink-muted">
                  It waits for you to send it:{" "}
                  <Link to="/admin/outbox?status=owner" className="text-accent underline-offset-4 hover:underline">
                    To send on WhatsApp
                  </Link>
                </span>
              ) : null}
              {state === "failed" && row.error ? <span className="break-words text-bad">{row.error}</span> : null}
              {row.channel === "whatsapp" && state === "rerouted" ? (
                <span className="text-ink-muted">No WhatsApp template allows it now, so the e-mail carries it.</span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
