import { Badge, type BadgeVariant } from "@/web/components/ui/badge";

const variants: Record<string, BadgeVariant> = {
  // leads
  new: "accent",
  contacted: "warn",
  converted: "ok",
  lost: "neutral",
  // clients
  trial: "special",
  active: "ok",
  expired: "neutral",
  suspended: "bad",
  // payments
  pending: "warn",
  paid: "ok",
  failed: "bad",
  cancelled: "neutral",
  refunded: "neutral",
  "partly refunded": "warn",
  "refund held": "special",
  "held for you": "bad",
  // outbox
  sent: "ok",
  sending: "warn",
  owner: "accent",
  rerouted: "neutral",
  // panel jobs
  running: "warn",
  done: "ok",
  task: "special",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={variants[status] ?? "neutral"} className="px-2.5 py-0.5 text-center text-[0.7rem] text-balance">
      {status.replace(/[_-]+/g, " ")}
    </Badge>
  );
}
