// The in-page question before the browser's own: browsers want a click before they ask for
// notification permission, and a visitor who knows what they'll get says yes more often.
import { BellRing, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";

export function NotificationPrompt({ onDone }: { onDone: (granted: boolean) => void }) {
  const [asking, setAsking] = useState(false);

  const allow = async () => {
    setAsking(true);
    let permission: NotificationPermission = "default";
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = "denied";
    }
    if (permission === "granted") toast.success("Notifications on", { description: "We'll let you know about new specials." });
    else if (permission === "denied")
      toast.info("Notifications are off", { description: "You can turn them on any time in your browser's site settings." });
    onDone(permission === "granted");
  };

  return (
    <aside
      aria-labelledby="notify-title"
      className="fixed inset-x-3 bottom-[max(0.75rem,env(safe-area-inset-bottom))] z-40 mx-auto max-w-md animate-fade-in rounded-card border border-line-strong bg-surface-raised p-5 shadow-2xl shadow-black/50 sm:right-6 sm:left-auto sm:mx-0"
    >
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-special-soft text-special-ink">
          <BellRing aria-hidden="true" className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id="notify-title" className="font-semibold text-ink">
            Get notified about new specials?
          </h2>
          <p className="text-sm text-ink-muted">Only new specials and important service notices. You can switch them off any time.</p>
        </div>
        <button
          type="button"
          onClick={() => onDone(false)}
          aria-label="Close"
          className="-mt-2 -mr-2 flex size-11 shrink-0 items-center justify-center rounded-lg text-ink-muted hover:bg-surface-overlay hover:text-ink"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <div className="mt-4 flex gap-3">
        <Button size="sm" className="flex-1" onClick={() => void allow()} disabled={asking}>
          Yes, notify me
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onDone(false)} disabled={asking}>
          Not now
        </Button>
      </div>
    </aside>
  );
}
