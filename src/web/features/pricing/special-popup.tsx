// The special popup (spec §4): a banner of type 'special' as a dialog. Its Order Now button
// closes it and sends the visitor to the order form with the monthly plan chosen.
//
// The browser's own modal <dialog>, not the Radix dialog of components/ui: it opens by itself
// a second after the landing loads, while a slow phone is still busy, and the native one opens
// in a fraction of the time (no scroll-lock stylesheet, no re-styling of the whole page, no
// extra library to load). It keeps what a dialog must do: the page behind is inert, focus
// starts inside and goes back where it was, Escape and a tap outside close it, and the title
// names it.
import { Flame, ShoppingCart, X } from "lucide-react";
import { useEffect, useId, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";
import type { Banner } from "@/shared/api";
import { Button } from "@/web/components/ui/button";

export interface SpecialPopupProps {
  banner: Banner;
  onClose: () => void;
  onOrderNow: () => void;
}

export function SpecialPopup({ banner, onClose, onOrderNow }: SpecialPopupProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  // Closed before React takes it out of the page, so the browser puts focus back where it was.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => dialog?.close();
  }, []);

  // In <body>, not in the pricing section: the section skips its layout while off screen
  // (content-visibility), and a dialog inside it would make the browser lay all of it out.
  return createPortal(
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click closes on a tap outside; keyboards close it with Escape (onCancel)
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-testid="special-popup"
      // Escape: the app closes it (unmounting it), so its state stays the app's.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // A tap on the backdrop reaches the <dialog> itself; a tap on its content reaches the inner box.
      onClick={(event) => event.target === event.currentTarget && onClose()}
      className={
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md overflow-y-auto overscroll-contain rounded-card border " +
        "border-special/50 bg-surface p-0 text-ink shadow-2xl shadow-black/50 backdrop:bg-black/70 open:animate-fade-in"
      }
    >
      <div className="relative p-6 text-center">
        <div className="flex flex-col items-center gap-1.5">
          <span className="mb-2 flex size-14 items-center justify-center rounded-full bg-special-soft text-special-ink ring-1 ring-special/40">
            <Flame aria-hidden="true" className="size-7" />
          </span>
          <p className="text-xs font-bold tracking-widest text-special-ink uppercase">Special offer</p>
          <h2 id={titleId} className="text-2xl font-bold tracking-tight text-balance text-ink">
            {banner.title}
          </h2>
          <p id={descriptionId} className="text-base text-pretty text-ink-muted">
            {banner.content}
          </p>
        </div>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
          <Button variant="ghost" onClick={onClose}>
            Maybe later
          </Button>
          <Button variant="special" onClick={onOrderNow}>
            <ShoppingCart aria-hidden="true" />
            Order Now
          </Button>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full text-ink-muted hover:bg-surface-overlay hover:text-ink"
        >
          <X className="size-5" aria-hidden="true" />
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
