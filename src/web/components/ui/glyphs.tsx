// The few icons drawn before first paint (navigation, error screen), as plain SVG with lucide's
// own path data (ISC licence). Skipping lucide-react's runtime here keeps the landing's entry
// JavaScript inside its 120 KB budget (docs/architecture.md, "Budgets"). Everywhere else, import icons
// from lucide-react.
import type { ReactNode, SVGProps } from "react";

export type GlyphProps = Omit<SVGProps<SVGSVGElement>, "children">;

function Glyph({ children, ...props }: GlyphProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const MenuGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M4 5h16M4 12h16M4 19h16" />
  </Glyph>
);

export const CloseGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Glyph>
);

export const CircleCheckGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <circle cx="12" cy="12" r="10" />
    <path d="m16 9-5.5 5.5L8 12" />
  </Glyph>
);

export const WrenchGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.106-3.105c.32-.322.863-.22.983.218a6 6 0 0 1-8.259 7.057l-7.91 7.91a1 1 0 0 1-2.999-3l7.91-7.91a6 6 0 0 1 7.057-8.259c.438.12.54.662.219.984z" />
  </Glyph>
);

export const OctagonAlertGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M12 16h.01M12 8v4" />
    <path d="M15.312 2a2 2 0 0 1 1.414.586l4.688 4.688A2 2 0 0 1 22 8.688v6.624a2 2 0 0 1-.586 1.414l-4.688 4.688a2 2 0 0 1-1.414.586H8.688a2 2 0 0 1-1.414-.586l-4.688-4.688A2 2 0 0 1 2 15.312V8.688a2 2 0 0 1 .586-1.414l4.688-4.688A2 2 0 0 1 8.688 2z" />
  </Glyph>
);

export const LifeBuoyGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <circle cx="12" cy="12" r="10" />
    <path d="m4.93 4.93 4.24 4.24M14.83 9.17l4.24-4.24M14.83 14.83l4.24 4.24M9.17 14.83l-4.24 4.24" />
    <circle cx="12" cy="12" r="4" />
  </Glyph>
);

export const TriangleAlertGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
    <path d="M12 9v4M12 17h.01" />
  </Glyph>
);

export const HomeGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M15 21v-8a1 1 0 0 0-1-1h-4a1 1 0 0 0-1 1v8" />
    <path d="M3 10a2 2 0 0 1 .709-1.528l7-6a2 2 0 0 1 2.582 0l7 6A2 2 0 0 1 21 10v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
  </Glyph>
);

export const RotateCcwGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8" />
    <path d="M3 3v5h5" />
  </Glyph>
);
