// Top navigation (spec §2): Help Centre, Status with a health icon, Admin Login, Client Portal;
// on small screens a menu that also offers Technical Support and closes on navigation.
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import type { OverallStatus } from "@/shared/api";
import { STATUS_LABELS } from "@/shared/status";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import {
  CircleCheckGlyph,
  CloseGlyph,
  type GlyphProps,
  LifeBuoyGlyph,
  MenuGlyph,
  OctagonAlertGlyph,
  WrenchGlyph,
} from "@/web/components/ui/glyphs";
import { cn } from "@/web/lib/cn";
import { useBranding } from "@/web/lib/queries/branding";
import { useOverallStatus } from "@/web/lib/queries/status";
import { BrandMark } from "./brand-mark";

const statusIcon: Record<OverallStatus, { Icon: (props: GlyphProps) => ReactNode; className: string }> = {
  stable: { Icon: CircleCheckGlyph, className: "text-ok" },
  maintenance: { Icon: WrenchGlyph, className: "text-warn" },
  down: { Icon: OctagonAlertGlyph, className: "text-bad" },
};

function StatusIcon({ status }: { status: OverallStatus }) {
  const { Icon, className } = statusIcon[status];
  return <Icon data-status={status} className={cn("size-4", className)} />;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-medium transition-colors",
    isActive ? "text-ink" : "text-ink-muted hover:text-ink",
  );

export function SiteNav() {
  const status = useOverallStatus();
  const { branding } = useBranding();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  // The menu closes on navigation (spec §2).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of a location change
  useEffect(() => setOpen(false), [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const statusLabel = `Status: ${STATUS_LABELS[status]}`;

  return (
    <header className="sticky top-0 z-30 border-b border-line/70 bg-canvas/85 pt-[env(safe-area-inset-top)] backdrop-blur-lg">
      <Container className="flex h-16 items-center justify-between gap-4">
        <Link
          to="/"
          className="flex min-h-11 min-w-0 items-center rounded-lg"
          aria-label={branding.companyName ? `${branding.companyName} home` : "Home"}
        >
          <BrandMark />
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <NavLink to="/knowledge-base" className={linkClass}>
            Help Centre
          </NavLink>
          <NavLink to="/status" className={linkClass} title={statusLabel}>
            <StatusIcon status={status} />
            Status
            <span className="sr-only"> ({STATUS_LABELS[status]})</span>
          </NavLink>
          <NavLink to="/admin/login" className={linkClass}>
            Admin Login
          </NavLink>
          <Link to="/client/login" className={buttonClasses({ size: "sm", className: "ml-2" })}>
            Client Portal
          </Link>
        </nav>

        <button
          ref={buttonRef}
          type="button"
          className="inline-flex size-11 items-center justify-center rounded-lg text-ink hover:bg-surface-raised md:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? "Close menu" : "Open menu"}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <CloseGlyph className="size-6" /> : <MenuGlyph className="size-6" />}
        </button>
      </Container>

      <nav
        id={menuId}
        aria-label="Mobile"
        hidden={!open}
        className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-line bg-canvas md:hidden"
      >
        <Container className="flex flex-col gap-1 py-3">
          <NavLink to="/knowledge-base" className={linkClass}>
            Help Centre
          </NavLink>
          <NavLink to="/technical-support" className={linkClass}>
            <LifeBuoyGlyph className="size-4" />
            Technical Support
          </NavLink>
          <NavLink to="/status" className={linkClass}>
            <StatusIcon status={status} />
            Status
            <span className="text-xs text-ink-subtle">· {STATUS_LABELS[status]}</span>
          </NavLink>
          <NavLink to="/admin/login" className={linkClass}>
            Admin Login
          </NavLink>
          <Link to="/client/login" className={buttonClasses({ size: "md", className: "mt-2" })}>
            Client Portal
          </Link>
        </Container>
      </nav>
    </header>
  );
}
