// 'Use this speed in my order': the stream test hands its download figure to the order form
// through a window event, as the page's parts do (lib/window-events.ts), so neither feature
// imports the other. The order form listens for the same name (features/order/order-events.ts).
import { scrollToSection } from "@/web/lib/scroll";

export const STREAM_TEST_SPEED = "useStreamTestSpeed";

export interface StreamTestSpeedDetail {
  /** '87.3 Mbps' */
  speed: string;
}

/**
 * On a page with the order section: fill its Internet Speed and scroll there (true). Without
 * one (the /stream-test page) it returns false, and the caller takes the visitor to /order.
 */
export function sendSpeedToOrder(speed: string): boolean {
  if (!document.getElementById("order")) return false;
  window.dispatchEvent(new CustomEvent<StreamTestSpeedDetail>(STREAM_TEST_SPEED, { detail: { speed } }));
  scrollToSection("order");
  return true;
}
