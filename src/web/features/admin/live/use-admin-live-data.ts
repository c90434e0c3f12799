// Live data for the dashboard (spec §4, §7): the change feed for the admin tables refetches the
// lists and records that show them and toasts 'Data Updated'; the window events paymentCaptured,
// paymentUpdated and paymentDeleted refresh clients and payments. A refetch that fails shows the
// destructive 'Sync Error' toast. The public tables' toast comes from the site-wide stream
// (app/layouts/root-layout.tsx), so this one only toasts for what that stream cannot see.
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ChangeEvent } from "@/shared/api";
import { ApiError } from "@/web/lib/api";
import { publicTables } from "@/web/lib/query-keys";
import { connectLiveData, refetchAfterChange } from "@/web/lib/realtime";
import { toast } from "@/web/lib/toast";
import { ADMIN_LIVE_TABLES, adminKeys, adminKeysForTable, QUIET_TABLES } from "../admin-keys";

/** Spec §7: window events after which clients and payments are refreshed. */
export const PAYMENT_EVENTS = ["paymentCaptured", "paymentUpdated", "paymentDeleted"] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

/** Announces a payment change to every part of the page that shows payments. */
export function emitPaymentEvent(name: PaymentEvent, paymentId?: string): void {
  window.dispatchEvent(new CustomEvent(name, { detail: { id: paymentId } }));
}

export function showSyncError(): void {
  // one toast however many refetches failed together
  toast.error("Sync Error", { id: "admin-sync-error", description: "Failed to sync data. Please try again." });
}

function showDataUpdated(change: ChangeEvent): void {
  if (publicTables.includes(change.table)) return;
  toast.info("Data Updated", { id: "admin-data-updated", description: "You're seeing the latest information." });
}

/**
 * Refetches the given key prefixes; resolves to whether they all refreshed. A failure (other
 * than a lost session) reports 'Sync Error', and only that: the change feed leaves out 'Data
 * Updated' when this resolves to false.
 */
export function refetchAdmin(
  queryClient: QueryClient,
  queryKeys: readonly (readonly string[])[],
  onError = showSyncError,
): Promise<boolean> {
  return Promise.all(queryKeys.map((queryKey) => refetchAfterChange(queryClient, queryKey, { throwOnError: true }))).then(
    () => true,
    (error: unknown) => {
      // A 401 ends the session instead (session/admin-session.tsx); no sync message for that.
      if (!(error instanceof ApiError && error.status === 401)) onError();
      return false;
    },
  );
}

export interface AdminLiveDataOptions {
  queryClient: QueryClient;
  createEventSource?: (url: string) => EventSource;
  onSyncError?: () => void;
  notify?: (change: ChangeEvent) => void;
}

/** Starts the admin change stream and the payment window events; returns a function that stops both. */
export function startAdminLiveData({
  queryClient,
  createEventSource,
  onSyncError = showSyncError,
  notify = showDataUpdated,
}: AdminLiveDataOptions): () => void {
  const stopStream =
    typeof EventSource === "undefined" && !createEventSource
      ? () => {}
      : connectLiveData({
          queryClient,
          tables: ADMIN_LIVE_TABLES,
          createEventSource,
          // the outbox's own comings and goings refresh what shows them, without a toast each time
          notify: (change) => {
            if (!QUIET_TABLES.includes(change.table)) notify(change);
          },
          invalidate: (table) => refetchAdmin(queryClient, adminKeysForTable(table), onSyncError),
        });
  const onPayment = () => void refetchAdmin(queryClient, [adminKeys.payments, adminKeys.clients, adminKeys.stats], onSyncError);
  for (const name of PAYMENT_EVENTS) window.addEventListener(name, onPayment);
  return () => {
    stopStream();
    for (const name of PAYMENT_EVENTS) window.removeEventListener(name, onPayment);
  };
}

/** Keeps the dashboard's data live while the signed-in wrapper is mounted. */
export function useAdminLiveData(): void {
  const queryClient = useQueryClient();
  useEffect(() => startAdminLiveData({ queryClient }), [queryClient]);
}
