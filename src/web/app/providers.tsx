import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, useState, useSyncExternalStore } from "react";
import { TOAST_OPTIONS } from "@/shared/constants";
import { AfterHydration } from "@/web/components/after-hydration";
import { toasterStore } from "@/web/lib/toast";
import { createQueryClient } from "./query-client";

// Toasts only ever follow an action or a live update, so sonner and its Toaster arrive with the
// first toast raised (web/lib/toast.ts), not with the page. Toasts raised before the Toaster
// mounts are shown once it does (sonner replays them).
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

/** The app's theme: one dark theme (docs/architecture.md, "House style"), so toasts follow it. */
export const APP_THEME = "dark" as const;

/**
 * Toasts sit below the 64 px header bar of every face, so a toast never covers what the header
 * offers (Logout, the menu) while it shows.
 */
export const TOAST_OFFSET = { top: 80, right: 16 } as const;
/**
 * On a phone a toast at the top covers the page's heading (and what a live update changed under
 * it), so there toasts rise from the bottom edge instead (issue 48 item 5); sonner's own mobile
 * breakpoint is 600 px.
 */
export const TOAST_MOBILE_OFFSET = { bottom: 16, left: 12, right: 12 } as const;
export const PHONE_QUERY = "(max-width: 600px)";

const phoneStore = {
  subscribe: (onChange: () => void) => {
    if (typeof window === "undefined" || !window.matchMedia) return () => {};
    const list = window.matchMedia(PHONE_QUERY);
    list.addEventListener("change", onChange);
    return () => list.removeEventListener("change", onChange);
  },
  getSnapshot: () => typeof window !== "undefined" && Boolean(window.matchMedia?.(PHONE_QUERY).matches),
  getServerSnapshot: () => false,
};

export function Providers({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const toasterWanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.getSnapshot, toasterStore.getServerSnapshot);
  const phone = useSyncExternalStore(phoneStore.subscribe, phoneStore.getSnapshot, phoneStore.getServerSnapshot);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {toasterWanted ? (
        <AfterHydration>
          <Toaster
            {...TOAST_OPTIONS}
            position={phone ? "bottom-center" : TOAST_OPTIONS.position}
            theme={APP_THEME}
            offset={TOAST_OFFSET}
            mobileOffset={TOAST_MOBILE_OFFSET}
            closeButton
          />
        </AfterHydration>
      ) : null}
    </QueryClientProvider>
  );
}
