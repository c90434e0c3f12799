// The portal's pages need a client session (spec §4): while it is checked they show their
// skeleton; without one they go to /client/login, remembering where the client was headed
// (with its query, so a reminder's /client?renew=1 still opens the renew action after sign-in).
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import type { ClientSummary } from "@/shared/client-schemas";
import { PageSkeleton, type SkeletonVariant } from "@/web/components/ui/page-skeleton";
import { useClientSession, useEndSessionOnUnauthorized, useRecheckSessionOnSuspended } from "../session/client-session";

export const CLIENT_LOGIN_PATH = "/client/login";

/** Where a signed-out client was going, so sign-in can take them there. */
export interface ClientLoginState {
  from?: string;
}

export function ClientGuard({ skeleton, children }: { skeleton: SkeletonVariant; children: (client: ClientSummary) => ReactNode }) {
  useEndSessionOnUnauthorized();
  useRecheckSessionOnSuspended();
  const { session } = useClientSession();
  const location = useLocation();
  if (session.status === "loading") return <PageSkeleton variant={skeleton} />;
  if (session.status === "unauthenticated") {
    const state: ClientLoginState = { from: `${location.pathname}${location.search}` };
    return <Navigate to={CLIENT_LOGIN_PATH} replace state={state} />;
  }
  return children(session.client);
}
