// Sign out of the portal and land on its sign-in page.
import { LogOut } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button, type ButtonVariant } from "@/web/components/ui/button";
import { useClientSession } from "../session/client-session";
import { CLIENT_LOGIN_PATH } from "./client-guard";

export function SignOutButton({ variant = "ghost", className }: { variant?: ButtonVariant; className?: string }) {
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
      {signingOut ? "Signing out..." : "Sign out"}
    </Button>
  );
}
