// The frame of every signed-in portal page: the session guard, the portal's own navigation
// (home, specials, payments, account, sign out) and the page's heading. A suspended client gets
// the suspended page instead, on every portal address.
import { CreditCard, Home, Sparkles, UserCog } from "lucide-react";
import type { ReactNode } from "react";
import { NavLink } from "react-router";
import type { ClientSummary } from "@/shared/client-schemas";
import { Container } from "@/web/components/ui/container";
import type { SkeletonVariant } from "@/web/components/ui/page-skeleton";
import { cn } from "@/web/lib/cn";
import { ClientGuard } from "./client-guard";
import { SuspendedPage } from "./suspended-page";

const LINKS = [
  { to: "/client", label: "Home", icon: Home, end: true },
  { to: "/client/specials", label: "Specials", icon: Sparkles, end: false },
  { to: "/payment-history", label: "Payments", icon: CreditCard, end: false },
  { to: "/account-management", label: "Account", icon: UserCog, end: false },
] as const;

export interface PortalPageProps {
  title: string;
  description?: ReactNode;
  skeleton: SkeletonVariant;
  children: (client: ClientSummary) => ReactNode;
}

export function PortalPage({ title, description, skeleton, children }: PortalPageProps) {
  return (
    <ClientGuard skeleton={skeleton}>
      {(client) =>
        // Suspended: this one page in place of every portal page, whatever the address.
        client.status === "suspended" ? (
          <Container className="py-6 sm:py-10">
            <SuspendedPage client={client} />
          </Container>
        ) : (
          <Container className="py-6 sm:py-10">
            <PortalNav client={client} />
            <div className="mt-6 mb-6 flex flex-col gap-2 sm:mt-8 print:hidden">
              <h1 className="text-2xl font-bold tracking-tight text-balance text-ink sm:text-3xl">{title}</h1>
              {description ? <div className="text-ink-muted">{description}</div> : null}
            </div>
            {children(client)}
          </Container>
        )
      }
    </ClientGuard>
  );
}

function PortalNav({ client }: { client: ClientSummary }) {
  return (
    <div className="flex flex-col gap-3 print:hidden">
      <p className="min-w-0 truncate text-sm text-ink-muted">
        Signed in as <span className="font-semibold text-ink">{client.full_name || client.username}</span>
      </p>
      <nav aria-label="Client portal">
        <ul className="grid grid-cols-4 gap-1 rounded-2xl border border-line bg-surface p-1">
          {LINKS.map(({ to, label, icon: Icon, end }) => (
            <li key={to}>
              <NavLink
                to={to}
                end={end}
                className={({ isActive }) =>
                  cn(
                    "flex min-h-12 flex-col items-center justify-center gap-0.5 rounded-xl px-1 text-xs font-semibold whitespace-nowrap transition-colors sm:flex-row sm:gap-2 sm:px-3 sm:text-sm",
                    isActive ? "bg-accent text-white" : "text-ink-muted hover:bg-surface-raised hover:text-ink",
                  )
                }
              >
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
