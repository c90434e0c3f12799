// Small marks for the ways to pay, beside each name where a customer chooses one (the storefront's
// review step, the portal's renew panel). Our own drawings (a simple shape on a tile in the
// provider's kind of colour, no lettering), inline SVG: never a provider's logo file, never
// fetched from anywhere. Decorative: the name beside each mark is the choice's accessible name, so
// a screen reader hears "PayFast" once, not twice.
import { Banknote, CreditCard } from "lucide-react";
import type { HostedPaymentMethod } from "@/shared/api";
import { cn } from "@/web/lib/cn";

export type PaymentMarkId = HostedPaymentMethod | "card" | "eft";

const BADGE = "h-6 w-9 shrink-0";

/**
 * The mark for one way to pay, 36×24 px, aria-hidden. A provider with no drawing here (one added
 * since) shows `text`, its registry mark (GET /api/payment-providers), on a plain tile.
 */
export function PaymentMark({ id, text, className }: { id: PaymentMarkId | (string & {}); text?: string; className?: string }) {
  const common = { focusable: "false" as const, "data-mark": id, viewBox: "0 0 36 24" };
  switch (id) {
    case "payfast":
      // a red tile with a double forward chevron: paying, fast
      return (
        <svg aria-hidden="true" {...common} className={cn(BADGE, className)}>
          <rect width="36" height="24" rx="5" fill="#d7263d" />
          <path
            d="M10 6.5l6 5.5-6 5.5M18 6.5l6 5.5-6 5.5"
            fill="none"
            stroke="#fff"
            strokeWidth="2.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      );
    case "ozow":
      // a teal tile with two arrows passing each other: money moving between banks, at once
      return (
        <svg aria-hidden="true" {...common} className={cn(BADGE, className)}>
          <rect width="36" height="24" rx="5" fill="#0f8f86" />
          <path
            d="M9 9h17M22 5.5L26 9l-4 3.5M27 15H10M14 11.5L10 15l4 3.5"
            fill="none"
            stroke="#fff"
            strokeWidth="2.2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      );
    case "yoco":
      // a near-black tile with a bold "Y" and a dot
      return (
        <svg aria-hidden="true" {...common} className={cn(BADGE, className)}>
          <rect width="36" height="24" rx="5" fill="#1d1f24" stroke="#5b6070" strokeWidth="1" />
          <path d="M12 6l5 7v5M22 6l-5 7" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
          <circle cx="26" cy="17" r="1.8" fill="#35c1ff" />
        </svg>
      );
    case "eft":
      // the icons in the same 36×24 box as the tiles, so every name starts at the same place
      return <Banknote aria-hidden="true" data-mark="eft" className={cn(BADGE, "py-0.5", className)} />;
    case "card":
      return <CreditCard aria-hidden="true" data-mark="card" className={cn(BADGE, "py-0.5", className)} />;
    default:
      if (!text) return <CreditCard aria-hidden="true" data-mark="card" className={cn(BADGE, "py-0.5", className)} />;
      return (
        <svg aria-hidden="true" {...common} className={cn(BADGE, className)}>
          <rect width="36" height="24" rx="5" fill="#2b2f3a" />
          <text x="18" y="16" textAnchor="middle" fontSize="10" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
            {text.slice(0, 4)}
          </text>
        </svg>
      );
  }
}
