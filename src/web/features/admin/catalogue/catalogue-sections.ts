// Catalogue: packages, specials, banners, apps, testimonials, homepage content, branding,
// images, site settings and trial blackout days. Each section is its own lazy chunk.
import {
  BadgePercent,
  CalendarOff,
  Image,
  LayoutTemplate,
  Megaphone,
  MessageSquareQuote,
  Package,
  Palette,
  Settings,
  Smartphone,
} from "lucide-react";
import type { AdminSection } from "../sections";

export const catalogueSections: AdminSection[] = [
  {
    path: "packages",
    label: "Packages",
    icon: Package,
    group: "catalogue",
    load: () => import("./packages/packages-section").then((m) => m.PackagesSection),
  },
  {
    path: "specials",
    label: "Specials",
    icon: BadgePercent,
    group: "catalogue",
    load: () => import("./specials/specials-section").then((m) => m.SpecialsSection),
  },
  {
    path: "banners",
    label: "Banners",
    icon: Megaphone,
    group: "catalogue",
    load: () => import("./banners/banners-section").then((m) => m.BannersSection),
  },
  {
    path: "apps",
    label: "Apps",
    icon: Smartphone,
    group: "catalogue",
    load: () => import("./downloads/downloads-section").then((m) => m.DownloadsSection),
  },
  {
    path: "testimonials",
    label: "Testimonials",
    icon: MessageSquareQuote,
    group: "catalogue",
    load: () => import("./testimonials/testimonials-section").then((m) => m.TestimonialsSection),
  },
  {
    path: "content",
    label: "Homepage content",
    icon: LayoutTemplate,
    group: "catalogue",
    load: () => import("./content/content-section").then((m) => m.ContentSection),
  },
  {
    path: "branding",
    label: "Branding",
    icon: Palette,
    group: "catalogue",
    load: () => import("./branding/branding-section").then((m) => m.BrandingSection),
  },
  {
    path: "images",
    label: "Images",
    icon: Image,
    group: "catalogue",
    load: () => import("./branding/images-section").then((m) => m.ImagesSection),
  },
  {
    path: "settings",
    label: "Site settings",
    icon: Settings,
    group: "catalogue",
    load: () => import("./branding/settings-section").then((m) => m.SettingsSection),
  },
  {
    path: "blackout-days",
    label: "Trial blackout days",
    icon: CalendarOff,
    group: "catalogue",
    load: () => import("./branding/blackout-days-section").then((m) => m.BlackoutDaysSection),
  },
];
