import { PricingSection } from "./pricing-section";
import { SpecialPopupHost } from "./special-popup-host";

/** /pricing: the pricing section as a page of its own, with the special popup. */
export function PricingPage() {
  return (
    <>
      <PricingSection headingLevel={1} />
      <SpecialPopupHost />
    </>
  );
}
