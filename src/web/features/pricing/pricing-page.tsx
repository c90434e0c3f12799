import { PricingSection } from "./pricing-section";

/** /pricing: the pricing section as a page of its own. */
export function PricingPage() {
  return <PricingSection headingLevel={1} />;
}
