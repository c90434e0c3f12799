// The dashboard's navigation: Overview, then the registry's sections grouped (Sales, Catalogue,
// Operations, Account). Used by the desktop sidebar and the phone drawer alike.
import { LayoutDashboard } from "lucide-react";
import { NavLink } from "react-router";
import { cn } from "@/web/lib/cn";
import { adminSectionGroups, adminSections } from "../sections";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium transition-colors",
    isActive ? "bg-accent/15 text-ink ring-1 ring-accent/40" : "text-ink-muted hover:bg-surface-raised hover:text-ink",
  );

export function AdminNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Dashboard" className="flex flex-col gap-6 p-4">
      <NavLink to="/admin" end className={linkClass} onClick={onNavigate}>
        <LayoutDashboard aria-hidden="true" className="size-5 shrink-0" />
        Overview
      </NavLink>
      {adminSectionGroups.map((group) => {
        const sections = adminSections.filter((s) => s.group === group.id);
        if (!sections.length) return null;
        const headingId = `admin-nav-${group.id}`;
        return (
          <div key={group.id} className="flex flex-col gap-1">
            <p id={headingId} className="px-3 pb-1 text-xs font-semibold tracking-widest text-ink-subtle uppercase">
              {group.label}
            </p>
            <ul aria-labelledby={headingId} className="flex flex-col gap-1">
              {sections.map(({ path, label, icon: Icon }) => (
                <li key={path}>
                  <NavLink to={`/admin/${path}`} className={linkClass} onClick={onNavigate}>
                    <Icon aria-hidden="true" className="size-5 shrink-0" />
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
