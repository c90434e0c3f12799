// /admin, /admin/:section and /admin/:section/:subsection: the overview, or the section that
// sections.ts registers under :section (its code loaded on first visit).
import { type ComponentType, lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import { buttonClasses } from "@/web/components/ui/button";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { usePageTitle } from "@/web/lib/page-title";
import { SectionErrorBoundary } from "./components/section-error-boundary";
import { OverviewSection } from "./overview/overview-section";
import { type AdminSection, findAdminSection } from "./sections";

const lazySections = new Map<string, ComponentType>();

/** One lazy component per section, made once so a re-render never reloads it. */
function sectionComponent(section: AdminSection): ComponentType {
  let component = lazySections.get(section.path);
  if (!component) {
    component = lazy(() => section.load().then((Component) => ({ default: Component })));
    lazySections.set(section.path, component);
  }
  return component;
}

/** Each section names its own tab, so an owner with several open can tell them apart. */
export function adminTabTitle(path: string | undefined): string {
  const label = path ? (findAdminSection(path)?.label ?? "Not found") : "Overview";
  return `${label} · Business Dashboard`;
}

export function AdminDashboardPage() {
  const { section: path } = useParams();
  usePageTitle(adminTabTitle(path));
  if (!path) {
    return (
      <SectionErrorBoundary>
        <OverviewSection />
      </SectionErrorBoundary>
    );
  }
  const section = findAdminSection(path);
  if (!section) return <UnknownSection path={path} />;
  const Section = sectionComponent(section);
  return (
    <SectionErrorBoundary key={section.path}>
      <Suspense fallback={<PageSkeleton variant="table" />}>
        <Section />
      </Suspense>
    </SectionErrorBoundary>
  );
}

function UnknownSection({ path }: { path: string }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-card border border-line bg-surface px-6 py-14 text-center">
      <p className="text-5xl font-bold text-ink-subtle">404</p>
      <h1 className="text-xl font-bold text-ink">No dashboard section called “{path}”</h1>
      <p className="text-ink-muted">Pick a section from the menu, or go back to the overview.</p>
      <Link to="/admin" className={buttonClasses({ size: "sm" })}>
        Back to the overview
      </Link>
    </div>
  );
}
