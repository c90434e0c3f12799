// Footer (spec §2): quick links to the landing's sections, support and legal links, WhatsApp
// and e-mail from branding, and the reseller disclaimer. The footer content record may replace
// the link lists; anything it gets wrong falls back to the defaults.
import { Clock, Mail, MessageCircle } from "lucide-react";
import type { MouseEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { SUPPORT_HOURS } from "@/shared/constants";
import { buildWhatsAppLink, formatPhoneForDisplay, isValidWhatsAppLink } from "@/shared/whatsapp";
import { Container } from "@/web/components/ui/container";
import { useBranding } from "@/web/lib/queries/branding";
import { text, useContentSection } from "@/web/lib/queries/content";
import { useImages } from "@/web/lib/queries/images";
import { scrollToSection } from "@/web/lib/scroll";

interface FooterLink {
  text: string;
  /** a section of the landing page */
  id?: string;
  url?: string;
}

const DEFAULT_QUICK_LINKS: FooterLink[] = [
  { text: "Pricing", id: "pricing" },
  { text: "About Us", id: "about" },
  { text: "Testimonials", id: "testimonials" },
  { text: "Order Now", id: "order" },
];

const DEFAULT_SUPPORT_LINKS: FooterLink[] = [
  { text: "Setup Guide", url: "/setup-guide" },
  { text: "Technical Support", url: "/technical-support" },
  { text: "Downloads", url: "/downloads" },
];

const LEGAL_LINKS: FooterLink[] = [
  { text: "Privacy Policy", url: "/privacy-policy" },
  { text: "Terms of Service", url: "/terms-of-service" },
  { text: "Refund Policy", url: "/refund-policy" },
];

const LANDING_PATHS = new Set(["/", "/home"]);

/** Links from the footer content record; null when the field is missing or malformed. */
function parseLinks(value: unknown): FooterLink[] | null {
  if (!Array.isArray(value)) return null;
  const links: FooterLink[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return null;
    const link = item as Record<string, unknown>;
    const label = text(link.text);
    const id = text(link.id);
    const url = text(link.url);
    if (!label || (!id && !url)) return null;
    // Only our own pages or web addresses: never javascript: or other schemes.
    if (url && !/^(\/|https?:\/\/)/.test(url)) return null;
    links.push({ text: label, id: id ?? undefined, url: url ?? undefined });
  }
  return links.length ? links : null;
}

const linkClass = "inline-flex min-h-11 items-center text-sm text-ink-muted transition-colors hover:text-ink";

function FooterLinkItem({ link }: { link: FooterLink }) {
  const location = useLocation();
  const navigate = useNavigate();
  if (link.id) {
    const id = link.id;
    const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      // On the landing page scroll smoothly; elsewhere go to the landing at that section.
      if (!LANDING_PATHS.has(location.pathname) || !scrollToSection(id)) navigate({ pathname: "/", hash: `#${id}` });
    };
    return (
      <a href={`/#${id}`} onClick={onClick} className={linkClass}>
        {link.text}
      </a>
    );
  }
  const url = link.url ?? "/";
  if (url.startsWith("/")) {
    return (
      <Link to={url} className={linkClass}>
        {link.text}
      </Link>
    );
  }
  return (
    <a href={url} className={linkClass} rel="noopener noreferrer" target="_blank">
      {link.text}
    </a>
  );
}

function LinkColumn({ title, links }: { title: string; links: FooterLink[] }) {
  const headingId = `footer-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <nav aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-2 text-sm font-semibold tracking-wide text-ink uppercase">
        {title}
      </h2>
      <ul className="flex flex-col">
        {links.map((link) => (
          <li key={`${link.text}-${link.id ?? link.url}`}>
            <FooterLinkItem link={link} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter() {
  const { branding } = useBranding();
  const { section, content } = useContentSection("footer");
  const { footer_logo: logo } = useImages(["footer_logo"]);
  const quickLinks = parseLinks(content.links) ?? DEFAULT_QUICK_LINKS;
  const supportLinks = parseLinks(content.support_links) ?? DEFAULT_SUPPORT_LINKS;
  const description =
    text(section?.description) ?? "Live TV, sport, movies and series on the devices you already own, with friendly local support.";
  const whatsappLink = branding.whatsappNumber ? buildWhatsAppLink(branding.whatsappNumber) : null;
  const name = branding.companyName || "This service";
  const disclaimer =
    text(content.disclaimer) ??
    `${name} is an independent reseller: the streaming services we sell are provided by licensed upstream providers. We do not own the channels or content shown.`;

  return (
    <footer className="mt-auto border-t border-line bg-surface pb-[env(safe-area-inset-bottom)]">
      <Container className="grid gap-10 py-14 lg:grid-cols-[1.4fr_2fr]">
        <div className="flex flex-col gap-4">
          <Link to="/" className="inline-flex min-h-11 items-center self-start rounded-lg">
            <img
              src={logo.src}
              alt={logo.alt || branding.companyName}
              width={155}
              height={32}
              loading="lazy"
              className="h-9 w-auto max-w-full object-contain"
            />
          </Link>
          {branding.tagline ? <p className="font-medium text-ink">{branding.tagline}</p> : null}
          <p className="max-w-sm text-sm text-ink-muted">{description}</p>
          <ul className="flex flex-col gap-1 text-sm">
            {whatsappLink && isValidWhatsAppLink(whatsappLink) ? (
              <li>
                <a href={whatsappLink} target="_blank" rel="noopener noreferrer" className={`${linkClass} gap-2`}>
                  <MessageCircle aria-hidden="true" className="size-4 text-ok" />
                  WhatsApp {formatPhoneForDisplay(branding.whatsappNumber)}
                </a>
              </li>
            ) : null}
            {branding.supportEmail ? (
              <li>
                <a href={`mailto:${branding.supportEmail}`} className={`${linkClass} gap-2 break-all`}>
                  <Mail aria-hidden="true" className="size-4 text-accent-ink" />
                  {branding.supportEmail}
                </a>
              </li>
            ) : null}
            <li className="flex min-h-11 items-center gap-2 text-ink-muted">
              <Clock aria-hidden="true" className="size-4 text-ink-subtle" />
              Support {SUPPORT_HOURS}
            </li>
          </ul>
        </div>
        <div className="grid grid-cols-2 gap-x-6 gap-y-8 sm:grid-cols-3">
          <LinkColumn title="Quick Links" links={quickLinks} />
          <LinkColumn title="Support" links={supportLinks} />
          <LinkColumn title="Legal" links={LEGAL_LINKS} />
        </div>
      </Container>
      <div className="border-t border-line">
        <Container className="flex flex-col gap-3 py-6 text-xs text-ink-subtle sm:flex-row sm:items-start sm:justify-between">
          <p className="max-w-3xl">{disclaimer}</p>
          <p className="shrink-0">
            © {new Date().getFullYear()} {branding.companyName}
          </p>
        </Container>
      </div>
    </footer>
  );
}
