// About (spec §2): title, description, four feature cards and the company logo. The cards come
// from the 'about' content record's features list (icon among Shield, Zap, Users, Heart);
// anything missing or malformed falls back to the four defaults.
import { Heart, Shield, Users, Zap } from "lucide-react";
import type { CSSProperties } from "react";
import { SUPPORT_HOURS } from "@/shared/constants";
import { FullPageLink } from "@/web/components/full-page-link";
import { Container } from "@/web/components/ui/container";
import { SectionHeading } from "@/web/components/ui/section-heading";
import { useBranding } from "@/web/lib/queries/branding";
import { text, useContentSection } from "@/web/lib/queries/content";
import { useImages } from "@/web/lib/queries/images";

const ICONS = { Shield, Zap, Users, Heart } as const;
type IconName = keyof typeof ICONS;

/** Colour names the content may use, mapped to the brand's tints. */
const COLOURS: Record<string, string> = {
  blue: "bg-sky-500/15 text-sky-300",
  green: "bg-ok/15 text-ok",
  yellow: "bg-special/15 text-special-ink",
  orange: "bg-special/15 text-special-ink",
  purple: "bg-violet-500/15 text-violet-300",
  red: "bg-accent/15 text-accent-ink",
  pink: "bg-accent/15 text-accent-ink",
};

interface AboutFeature {
  icon: IconName;
  colour: string;
  title: string;
  description: string;
}

export const DEFAULT_ABOUT_FEATURES: AboutFeature[] = [
  {
    icon: "Shield",
    colour: "blue",
    title: "Privacy & Security",
    description: "Your details stay private, and payments run through secure, trusted providers.",
  },
  {
    icon: "Zap",
    colour: "yellow",
    title: "Lightning Fast Streaming",
    description: "Smooth HD and 4K playback on fibre, LTE and 5G connections.",
  },
  {
    icon: "Users",
    colour: "green",
    title: "Local Expert Support",
    description: `Real people who know South African internet, ${SUPPORT_HOURS}.`,
  },
  {
    icon: "Heart",
    colour: "red",
    title: "Complete Family Package",
    description: "Sport, news, movies, series and kids' channels in one subscription.",
  },
];

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * A hex colour ('#38bdf8') tints the icon with that colour; a name ('green', 'text-green-500')
 * picks the matching brand tint.
 */
function tint(colour: string): { className: string; style?: CSSProperties } {
  if (HEX.test(colour)) return { className: "", style: { color: colour, backgroundColor: `${colour}26` } };
  const name = Object.keys(COLOURS).find((key) => colour.toLowerCase().includes(key));
  return { className: COLOURS[name ?? "blue"] };
}

function parseFeatures(value: unknown): AboutFeature[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const features: AboutFeature[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return null;
    const raw = item as Record<string, unknown>;
    const title = text(raw.title);
    const icon = text(raw.icon);
    if (!title) return null;
    features.push({
      icon: icon && icon in ICONS ? (icon as IconName) : "Shield",
      colour: text(raw.color) ?? text(raw.colour) ?? "blue",
      title,
      description: text(raw.description) ?? "",
    });
  }
  return features;
}

export function AboutSection({ showFullPageLink = false, headingLevel = 2 }: { showFullPageLink?: boolean; headingLevel?: 1 | 2 }) {
  const { section, content } = useContentSection("about");
  const { branding } = useBranding();
  const { about_company_logo: logo } = useImages(["about_company_logo"]);
  const features = parseFeatures(content.features) ?? DEFAULT_ABOUT_FEATURES;
  const name = branding.companyName;
  const title = text(section?.title) ?? (name ? `About ${name}` : "About us");
  const description =
    text(section?.description) ??
    "We're a South African team that helps you stream the channels you love without the satellite dish or the contract. We set you up, answer your questions and stay a WhatsApp message away.";

  return (
    <section id="about" aria-labelledby="about-heading" className="border-y border-line/60 bg-surface/40 py-20 sm:py-24">
      {/* Phones: intro, cards, then the link. Wide screens: intro and link on the left, cards on the right. */}
      <Container className="grid grid-cols-1 gap-10 lg:grid-cols-[0.8fr_1.2fr] lg:gap-x-12 lg:gap-y-6">
        <div className="flex flex-col items-center gap-6 text-center lg:col-start-1 lg:row-start-1 lg:items-start lg:self-end lg:text-left">
          <img
            src={logo.src}
            alt={logo.alt || (name ? `${name} logo` : "")}
            width={232}
            height={48}
            loading="lazy"
            className="h-12 w-auto max-w-full object-contain"
          />
          <SectionHeading
            id="about-heading"
            level={headingLevel}
            eyebrow="About"
            title={title}
            description={description}
            align="left"
            className="items-center text-center lg:items-start lg:text-left"
          />
        </div>
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-center">
          {features.map((feature) => {
            const Icon = ICONS[feature.icon];
            const colour = tint(feature.colour);
            return (
              <li key={feature.title} className="flex gap-4 rounded-card border border-line bg-surface p-5 sm:flex-col sm:gap-0 sm:p-6">
                <span
                  className={`flex size-12 shrink-0 items-center justify-center rounded-xl sm:mb-4 ${colour.className}`}
                  style={colour.style}
                >
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-ink">{feature.title}</h3>
                  {feature.description ? <p className="mt-1 text-sm text-ink-muted sm:mt-2">{feature.description}</p> : null}
                </div>
              </li>
            );
          })}
        </ul>
        {showFullPageLink ? <FullPageLink to="/about" className="lg:col-start-1 lg:row-start-2 lg:justify-start lg:self-start" /> : null}
      </Container>
    </section>
  );
}
