// The rows the catalogue's admin endpoints answer (every column, active or not). The public
// shapes in src/shared/api.ts are the starting point; the admin sees a few columns more.
import type { Banner, ContentSection, Download, ImageEntry, Package, Special, Testimonial } from "@/shared/api";

/** GET /api/admin/packages: every package, with the price a client would pay for it today (its special's, if one applies now). */
export type AdminPackage = Package & { price_today: number };
export type AdminBanner = Banner;
export type AdminDownload = Download & { created_at?: string };
export type AdminImage = ImageEntry;
export type AdminContent = ContentSection;

export interface AdminSpecial extends Special {
  is_active: boolean;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
}

export interface AdminTestimonial extends Testimonial {
  is_published: boolean;
  is_approved: boolean;
}

export interface AdminSetting {
  id: string;
  key: string;
  value: string;
  description: string;
  is_active: boolean;
}

export interface BlackoutDay {
  id: string;
  /** YYYY-MM-DD */
  day: string;
  reason: string;
}
