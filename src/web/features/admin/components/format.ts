// Small display helpers for admin screens (dates and money come from src/shared).
import { formatDate, formatDateTime } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { formatPhoneForDisplay } from "@/shared/whatsapp";

export { formatDate, formatDateTime };

/** +27 82 123 4567, or '—' when there is no number. */
export function phone(value: string | null | undefined): string {
  return value ? formatPhoneForDisplay(value) : "—";
}

/** The text, or a dash for nothing. */
export function orDash(value: string | null | undefined): string {
  return value?.trim() ? value : "—";
}

/** 'free-trial' → 'Free trial'; 'in_progress' → 'In progress'. */
export function humanise(value: string): string {
  const text = value.replace(/[_-]+/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

/** The start of a South African day ('YYYY-MM-DD') as an ISO date-time with its offset. */
export function saDayStartIso(day: string): string {
  return `${day}T00:00:00+02:00`;
}

export type PricedPackage = { name: string; duration: string; price: number; price_today?: number; is_active?: boolean };

/** What a client pays for a package today: its special price when one applies now, else its price. */
export const priceToday = (p: { price: number; price_today?: number }): number => p.price_today ?? p.price;

/**
 * A package as a choice in a list, priced as a client would pay today: '3 Months · R1,650', with
 * its duration when the name lacks it, and '3 Months · R1,450 (special)' while a special runs.
 */
export function packageChoice(p: PricedPackage): string {
  const duration = p.duration && p.duration.toLowerCase() !== p.name.toLowerCase() ? ` (${p.duration})` : "";
  const price = priceToday(p) < p.price ? `${formatRand(priceToday(p))} (special)` : formatRand(p.price);
  return `${p.name}${duration} · ${price}${p.is_active === false ? " (inactive)" : ""}`;
}

/** 'R1,450 today (special; normally R1,650)', or 'R1,650 today'. */
export function priceTodayText(p: PricedPackage): string {
  const today = priceToday(p);
  return today < p.price ? `${formatRand(today)} today (special; normally ${formatRand(p.price)})` : `${formatRand(today)} today`;
}
