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

/** A package as a choice in a list: '3 Months · R1,650', with its duration when the name lacks it. */
export function packageChoice(p: { name: string; duration: string; price: number; is_active?: boolean }): string {
  const duration = p.duration && p.duration.toLowerCase() !== p.name.toLowerCase() ? ` (${p.duration})` : "";
  return `${p.name}${duration} · ${formatRand(p.price)}${p.is_active === false ? " (inactive)" : ""}`;
}
