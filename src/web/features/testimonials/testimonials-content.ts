// The section's own words: title, description, the static quotes and the promise. The operator
// may set them in the 'testimonials' content record (title, description, content.quotes as a
// list of text, content.promise); these defaults stand in otherwise. They are the business's
// own statements, never invented customers.
import { SUPPORT_HOURS } from "@/shared/constants";
import { stringList, text, useContentSection } from "@/web/lib/queries/content";

export const TESTIMONIALS_DEFAULTS = {
  title: "What our customers say",
  description: "Reviews from people across South Africa who stream with us every day.",
  quotes: [
    "Most customers are set up and watching in about 5 minutes.",
    `Real people answer on WhatsApp, ${SUPPORT_HOURS}.`,
    "Try it free for 24 hours before you pay. No card needed.",
  ],
  promise: `Our promise: if something stops working, message us and a real person will help you get it going again, ${SUPPORT_HOURS}.`,
} as const;

export interface TestimonialsContent {
  title: string;
  description: string;
  quotes: readonly string[];
  promise: string;
}

export function useTestimonialsContent(): TestimonialsContent {
  const { section, content } = useContentSection("testimonials");
  return {
    title: text(section?.title) ?? TESTIMONIALS_DEFAULTS.title,
    description: text(section?.description) ?? TESTIMONIALS_DEFAULTS.description,
    quotes: stringList(content.quotes) ?? TESTIMONIALS_DEFAULTS.quotes,
    promise: text(content.promise) ?? TESTIMONIALS_DEFAULTS.promise,
  };
}
