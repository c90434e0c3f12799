// GET /api/payments/:ref: the real state of a card payment, for the result pages. A pending
// payment is asked about again every 3 s for up to a minute (the provider's confirmation
// usually lands within seconds of the customer's return). Once paid, while one of the
// customer's messages is still queued or waiting for the business to send it on WhatsApp, the
// page asks every 5 s (for up to half an hour) so it says when it goes: the outbox is not on
// the change feed, and a public page has no live connection to it.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { PaymentStatusView } from "@/shared/api";
import { ApiError, apiGet } from "@/web/lib/api";

export const PENDING_POLL_MS = 3000;
export const PENDING_POLL_FOR_MS = 60_000;
export const MESSAGES_POLL_MS = 5000;
export const MESSAGES_POLL_FOR_MS = 30 * 60_000;

/** A message of this paid payment has not gone yet: queued, or waiting for the business. */
export const messagesWaiting = (payment: PaymentStatusView | undefined): boolean =>
  payment?.status === "paid" && (payment.outcome.messages ?? []).some((m) => m.state === "queued" || m.state === "owner");

export async function getPaymentStatus(ref: string, signal?: AbortSignal): Promise<PaymentStatusView> {
  const body = await apiGet<{ data: PaymentStatusView }>(`/payments/${encodeURIComponent(ref)}`, { signal });
  return body.data;
}

export const paymentStatusQueryOptions = (ref: string, pollUntil: number, messagesUntil = pollUntil) =>
  queryOptions({
    queryKey: ["payment-status", ref],
    queryFn: ({ signal }) => getPaymentStatus(ref, signal),
    // Payment facts change from one second to the next: always ask.
    staleTime: 0,
    gcTime: 60_000,
    retry: (failureCount, error) => !(error instanceof ApiError && error.code) && failureCount < 2,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.status === "pending" && Date.now() < pollUntil) return PENDING_POLL_MS;
      if (messagesWaiting(data) && Date.now() < messagesUntil) return MESSAGES_POLL_MS;
      return false;
    },
  });

/** The payment's status; `keepChecking` restarts the minute of polling. */
export function usePaymentStatus(ref: string) {
  const [pollUntil, setPollUntil] = useState(() => Date.now() + PENDING_POLL_FOR_MS);
  const [timedOut, setTimedOut] = useState(false);
  const [messagesUntil] = useState(() => Date.now() + MESSAGES_POLL_FOR_MS);
  // Polling stops without a render of its own; this timer tells the page the minute is up.
  useEffect(() => {
    setTimedOut(false);
    const timer = setTimeout(() => setTimedOut(true), Math.max(0, pollUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [pollUntil]);
  const query = useQuery({ ...paymentStatusQueryOptions(ref, pollUntil, messagesUntil), enabled: ref !== "" });
  const stillPolling = query.data?.status === "pending" && !timedOut;
  return {
    ...query,
    stillPolling,
    keepChecking: () => {
      setPollUntil(Date.now() + PENDING_POLL_FOR_MS);
      void query.refetch();
    },
  };
}
