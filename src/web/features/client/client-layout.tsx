import { ArrowLeft, UserRound } from "lucide-react";
import { Link, Outlet } from "react-router";
import { Container } from "@/web/components/ui/container";
import { HeaderSignOut } from "./components/sign-out-button";

/** The client wrapper: every /client page renders inside it, in its own lazy chunk. */
export function ClientLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <header className="border-b border-line bg-surface pt-[env(safe-area-inset-top)]">
        <Container className="flex h-16 items-center justify-between gap-4">
          <Link to="/client" className="flex min-h-11 min-w-0 items-center gap-2 font-bold whitespace-nowrap text-ink">
            <UserRound aria-hidden="true" className="size-5 text-accent-ink" />
            Client Portal
          </Link>
          <div className="flex shrink-0 items-center gap-1 sm:gap-3">
            <Link
              to="/"
              className="inline-flex min-h-11 shrink-0 items-center gap-2 px-2 text-sm whitespace-nowrap text-ink-muted hover:text-ink"
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              <span className="sm:hidden">Website</span>
              <span className="hidden sm:inline">Back to the website</span>
            </Link>
            {/* In the bar, where a toast never covers it (toasts open below the header). */}
            <HeaderSignOut />
          </div>
        </Container>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}
