// The special popup (spec §4) on a page of its own: mounted by the landing and the pricing page
// as soon as the app runs, so it opens 1 s after load whether or not the pricing section below
// the fold has mounted yet. Its code and the dialog's arrive after the first paint.
import { lazy, Suspense, useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { DialogBoundary } from "@/web/components/dialog-boundary";
import { orderWithDuration } from "@/web/lib/window-events";
import { useBanners } from "./api/get-banners";
import type { SpecialPopupProps } from "./special-popup";
import { popupOrderDuration } from "./special-popup-plan";
import { usePlans } from "./use-plans";
import { useSpecialPopup } from "./use-special-popup";

// The dialog's code is fetched while the second passes, so it opens on time, not a round trip
// later; once here it renders directly (a lazy component would suspend once more, and React
// waits 300 ms before revealing what a suspended boundary held).
let loadedPopup: typeof import("./special-popup").SpecialPopup | undefined;
const loadPopup = () =>
  import("./special-popup").then((m) => {
    loadedPopup = m.SpecialPopup;
    return m;
  });
const LazySpecialPopup = lazy(() => loadPopup().then((m) => ({ default: m.SpecialPopup })));
if (typeof window !== "undefined") void loadPopup().catch(() => undefined);

/** The dialog, chosen once as it opens: switching from the lazy one to the loaded one would open it again. */
function SpecialPopup(props: SpecialPopupProps) {
  const [Dialog] = useState(() => loadedPopup ?? LazySpecialPopup);
  return <Dialog {...props} />;
}

export function SpecialPopupHost() {
  const banners = useBanners();
  const { plans } = usePlans();
  const popup = useSpecialPopup(banners);
  const navigate = useNavigate();

  // On the landing page the order form is right here; elsewhere the order page takes the duration.
  const order = useCallback(
    (duration: string) => {
      if (document.getElementById("order")) orderWithDuration(duration);
      else navigate(`/order?duration=${encodeURIComponent(duration)}`);
    },
    [navigate],
  );

  if (!popup.banner) return null;
  const banner = popup.banner;
  return (
    <DialogBoundary onClose={popup.close}>
      <Suspense fallback={null}>
        <SpecialPopup
          banner={banner}
          onClose={popup.close}
          onOrderNow={() => {
            popup.close();
            order(popupOrderDuration(banner, plans));
          }}
        />
      </Suspense>
    </DialogBoundary>
  );
}
