// 'Retry' on a failed or waiting message: it goes out again soon, its attempts start over.
import { RotateCw } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import type { OutboxMessage } from "./api/get-outbox";
import { useRetryOutboxMessage } from "./api/retry-outbox-message";

// A pending message that was never tried is simply waiting its turn: nothing to retry.
export const canRetry = (m: OutboxMessage) => m.status === "failed" || (m.status === "pending" && m.attempts > 0);

export function RetryButton({ message }: { message: OutboxMessage }) {
  const retry = useRetryOutboxMessage();
  if (!canRetry(message)) return null;
  return (
    <Button
      variant={message.status === "failed" ? "primary" : "outline"}
      size="sm"
      disabled={retry.isPending}
      aria-label={`Retry the message to ${message.recipient}`}
      onClick={() =>
        retry.mutate(message.id, {
          onSuccess: () => toast.success("Message queued again", { description: `It goes to ${message.recipient} within a minute.` }),
          onError: (error) => toast.error("Retry failed", { description: error.message }),
        })
      }
    >
      <RotateCw aria-hidden="true" className={retry.isPending ? "animate-spin" : undefined} />
      {retry.isPending ? "Retrying..." : "Retry"}
    </Button>
  );
}
