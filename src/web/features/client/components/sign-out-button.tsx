// Sign out of the portal and land on its sign-in page.
import { LogOut } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button, type ButtonVariant } from "@/web/components/ui/button";
import { useClientSession } from "../session/client-session";
import { CLIENT_LOGIN_PATH } from "./client-guard";

export function SignOutButton({
  variant = "ghost",
  className,
  compact = false,
}: {
  variant?: ButtonVariant;
  className?: string;
  /** the icon alone on a phone (the words stay for screen readers), as in a header bar */
  compact?: boolean;
}) {
  const { signOut } = useClientSession();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const logout = async () => {
    setSigningOut(true);
    await signOut();
    navigate(CLIENT_LOGIN_PATH, { replace: true });
  };
  return (
    <Button variant={variant} size="sm" onClick={logout} disabled={signingOut} className={className}>
      <LogOut aria-hidden="true" />
      <span className={compact ? "sr-only sm:not-sr-only" : undefined}>{signingOut ? "Signing out..." : "Sign out"}</span>
    </Button>
  );
}

/** Sign out in the portal's header bar, while a client is signed in (nothing otherwise). */
export function HeaderSignOut() {
  const { session } = useClientSession();
  return session.status === "authenticated" ? <SignOutButton compact className="shrink-0" /> : null;
}
