// The window events the order form listens for (spec §7): selectDuration (from the hero, the
// pricing cards and the special popup) sets the duration; pricingUpdated reloads the prices;
// useStreamTestSpeed (from the stream test's 'Use this speed in my order') fills Internet Speed.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { queryKeys } from "@/web/lib/query-keys";
import { SELECT_DURATION, type SelectDurationDetail, takePendingDuration } from "@/web/lib/window-events";

/** The stream test sends this name (features/stream-test/speed-event.ts); the two must agree. */
export const STREAM_TEST_SPEED = "useStreamTestSpeed";
export const PRICING_UPDATED = "pricingUpdated";

export interface OrderEventHandlers {
  onDuration: (duration: string) => void;
  onSpeed: (speed: string) => void;
}

export function useOrderEvents(handlers: OrderEventHandlers): void {
  const queryClient = useQueryClient();
  // The latest handlers, without re-subscribing on every render.
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    const onDuration = (event: Event) => {
      const duration = (event as CustomEvent<SelectDurationDetail>).detail?.duration;
      takePendingDuration();
      if (typeof duration === "string" && duration) latest.current.onDuration(duration);
    };
    const onSpeed = (event: Event) => {
      const speed = (event as CustomEvent<{ speed?: unknown }>).detail?.speed;
      if (typeof speed === "string" && speed) latest.current.onSpeed(speed);
    };
    const onPricing = () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.packages });
      void queryClient.invalidateQueries({ queryKey: queryKeys.specials });
    };
    window.addEventListener(SELECT_DURATION, onDuration);
    // Asked for while this form was still mounting (the hero's free-trial button on a slow phone).
    const missed = takePendingDuration();
    if (missed) latest.current.onDuration(missed);
    window.addEventListener(STREAM_TEST_SPEED, onSpeed);
    window.addEventListener(PRICING_UPDATED, onPricing);
    return () => {
      window.removeEventListener(SELECT_DURATION, onDuration);
      window.removeEventListener(STREAM_TEST_SPEED, onSpeed);
      window.removeEventListener(PRICING_UPDATED, onPricing);
    };
  }, [queryClient]);
}
