// Toasts without sonner on the page until one is raised. sonner (9.3 kB gzip) only ever shows
// what follows an action or a live update, yet a static `import { toast } from "sonner"` in any
// public module put it on every page, and the Toaster mounted after hydration everywhere (the
// landing's budget, docs/performance.md). Call `toast.success/error/info` from here instead: the
// first call loads sonner and tells `Providers` to mount its Toaster.
//
// A toast raised before the Toaster has mounted is still shown: sonner 2.0.8 keeps every toast in
// its own store and replays the active ones to a Toaster when it subscribes (`Observer.subscribe`
// in node_modules/sonner/dist), so there is no queue here. The Toaster is only wanted once sonner
// has loaded, so its lazy import cannot fail; a failed load (offline) drops that toast without
// throwing into the caller, and the next call tries again.
import type { ExternalToast, toast as sonnerToast } from "sonner";

type Message = Parameters<typeof sonnerToast.success>[0];
type Kind = "success" | "error" | "info";

let wanted = false;
const listeners = new Set<() => void>();
let loading: Promise<typeof import("sonner")> | null = null;

function load(): Promise<typeof import("sonner")> {
  loading ??= import("sonner").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

function show(kind: Kind, message: Message, data?: ExternalToast): void {
  load().then(
    (sonner) => {
      if (!wanted) {
        wanted = true;
        for (const listener of [...listeners]) listener();
      }
      sonner.toast[kind](message, data);
    },
    () => {},
  );
}

export const toast = {
  success: (message: Message, data?: ExternalToast) => show("success", message, data),
  error: (message: Message, data?: ExternalToast) => show("error", message, data),
  info: (message: Message, data?: ExternalToast) => show("info", message, data),
};

/** For `useSyncExternalStore`: whether a toast has been raised, so the Toaster should mount. */
export const toasterStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): boolean => wanted,
  getServerSnapshot: (): boolean => false,
};
