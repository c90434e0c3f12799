import type { ReactNode } from "react";
import { HowToUseSection } from "./how-to-use-section";

/**
 * /how-to-use: the steps as a page of their own, each with a little more detail. `apps` is the
 * downloads feature's 'Supported Apps & Devices', passed in by whoever composes the page.
 */
export function HowToUsePage({ apps }: { apps?: ReactNode }) {
  return <HowToUseSection headingLevel={1} detailed apps={apps} />;
}
