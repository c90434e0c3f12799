/** Leaves the portal for the provider's checkout (same tab: phones block pop-ups opened after a wait). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
