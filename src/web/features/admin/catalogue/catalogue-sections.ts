// Catalogue: packages, specials, banners, apps, testimonials, content, branding, images, settings.
import type { AdminSection } from "../sections";

export const catalogueSections: AdminSection[] = [];
