// The admin wrapper: every /admin page renders inside it, in its own lazy chunk. It owns the
// session (spec §4): /admin/login is open to all; every other page waits for the session check
// and, without a session, goes to /admin/login remembering where the admin was headed.
import { ExternalLink, LayoutDashboard, LogOut, Menu } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, Navigate, Outlet, useLocation } from "react-router";
import { Button } from "@/web/components/ui/button";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { useKeepFocusInPage } from "@/web/lib/keep-focus";
import { useBranding } from "@/web/lib/queries/branding";
import { AdminNav } from "./components/admin-nav";
import { Sheet, SheetContent, SheetTitle } from "./components/sheet";
import { useAdminLiveData } from "./live/use-admin-live-data";
import { AdminSessionProvider, useAdminSession } from "./session/admin-session";

export const ADMIN_LOGIN_PATH = "/admin/login";

export function AdminLayout() {
  return (
    <AdminSessionProvider>
      <AdminGate />
    </AdminSessionProvider>
  );
}

/** Where a signed-out admin was going, so sign-in can take them there. */
export interface AdminLoginState {
  from?: string;
}

function AdminGate() {
  const { session } = useAdminSession();
  const location = useLocation();
  if (location.pathname.replace(/\/+$/, "") === ADMIN_LOGIN_PATH) {
    return (
      <main id="main" className="min-h-dvh bg-canvas">
        <Outlet />
      </main>
    );
  }
  if (session.status === "loading") return <PageSkeleton variant="dashboard" />;
  if (session.status === "unauthenticated") {
    const state: AdminLoginState = { from: `${location.pathname}${location.search}` };
    return <Navigate to={ADMIN_LOGIN_PATH} replace state={state} />;
  }
  return <AdminShell email={session.admin.email} />;
}

function AdminShell({ email }: { email: string }) {
  const { signOut } = useAdminSession();
  const { branding } = useBranding();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const location = useLocation();
  useAdminLiveData();
  useKeepFocusInPage();

  // The phone drawer closes on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of a location change
  useEffect(() => setMenuOpen(false), [location.key]);

  const logout = async () => {
    setSigningOut(true);
    await signOut();
  };

  const brand = (
    <Link to="/admin" className="flex min-h-11 min-w-0 items-center gap-2 font-bold text-ink">
      <LayoutDashboard aria-hidden="true" className="size-5 shrink-0 text-accent-ink" />
      <span className="truncate">{branding.companyName ? `${branding.companyName} Admin` : "Business Dashboard"}</span>
    </Link>
  );

  return (
    <div className="flex min-h-dvh bg-canvas">
      {/* Keyboard users skip the section menu (some 25 links) to the page itself. */}
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-accent font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-4 focus:py-3"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col overflow-y-auto border-r border-line bg-surface lg:flex">
        <div className="flex h-16 items-center border-b border-line px-5">{brand}</div>
        <AdminNav />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 border-b border-line bg-surface/95 pt-[env(safe-area-inset-top)] backdrop-blur">
          <div className="flex h-16 items-center gap-2 px-3 sm:px-6">
            <Button
              variant="ghost"
              size="sm"
              className="px-3 lg:hidden"
              aria-label="Open the dashboard menu"
              onClick={() => setMenuOpen(true)}
            >
              <Menu aria-hidden="true" />
            </Button>
            <div className="min-w-0 flex-1 lg:hidden">{brand}</div>
            <p className="hidden min-w-0 flex-1 truncate text-sm text-ink-muted lg:block" title={email}>
              Signed in as <span className="font-medium text-ink">{email}</span>
            </p>
            <Link
              to="/"
              target="_blank"
              rel="noopener"
              className="inline-flex min-h-11 shrink-0 items-center gap-2 rounded-xl px-3 text-sm font-medium text-ink-muted hover:bg-surface-raised hover:text-ink"
            >
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="hidden sm:inline">View site</span>
              <span className="sr-only sm:hidden">View site</span>
            </Link>
            <Button variant="outline" size="sm" className="shrink-0 px-3 sm:px-4" onClick={logout} disabled={signingOut}>
              <LogOut aria-hidden="true" />
              <span className="hidden sm:inline">Logout</span>
              <span className="sr-only sm:hidden">Logout</span>
            </Button>
          </div>
        </header>

        <main id="main" tabIndex={-1} className="flex-1 px-3 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8">
          <Outlet />
        </main>
      </div>

      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent side="left" aria-describedby={undefined}>
          <div className="flex h-16 items-center border-b border-line px-5 pr-14">
            <SheetTitle className="truncate text-base font-bold text-ink">Dashboard menu</SheetTitle>
          </div>
          <p className="truncate border-b border-line px-5 py-3 text-sm text-ink-muted" title={email}>
            {email}
          </p>
          <AdminNav onNavigate={() => setMenuOpen(false)} />
        </SheetContent>
      </Sheet>
    </div>
  );
}
