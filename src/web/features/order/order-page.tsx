import { OrderSection } from "./order-section";

/** /order: the order section as a page of its own (takes ?duration= from the pricing cards). */
export function OrderPage() {
  return <OrderSection headingLevel={1} />;
}
