// 'Reset portal password': asks first (their sessions end), then shows the new password once.
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { OneTimePassword } from "../components/one-time-password";
import { useResetClientPassword } from "./api/reset-client-password";
import type { ClientDialogProps } from "./client-dialog";

export function ResetPasswordDialog({ client, open, onOpenChange }: ClientDialogProps) {
  const reset = useResetClientPassword();
  const [password, setPassword] = useState<string | null>(null);
  const close = (next: boolean) => {
    if (reset.isPending) return;
    onOpenChange(next);
    if (!next) setPassword(null);
  };
  const run = async () => {
    try {
      const answer = await reset.mutateAsync(client.id);
      setPassword(answer.password);
      toast.success("Password reset", { description: `${client.full_name} was signed out of the portal everywhere.` });
    } catch (error) {
      toast.error("Password not reset", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent onInteractOutside={(event) => password && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{password ? "New portal password" : "Reset portal password?"}</DialogTitle>
          <DialogDescription>
            {password
              ? `Send it to ${client.full_name}. Their old password no longer works.`
              : `${client.full_name} gets a new password and is signed out of the client portal on every device.`}
          </DialogDescription>
        </DialogHeader>
        {password ? <OneTimePassword username={client.username} password={password} /> : null}
        <DialogFooter>
          {password ? (
            <Button onClick={() => close(false)}>Done</Button>
          ) : (
            <>
              <Button variant="outline" onClick={() => close(false)} disabled={reset.isPending}>
                Cancel
              </Button>
              <Button onClick={run} disabled={reset.isPending}>
                {reset.isPending ? "Resetting..." : "Reset password"}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
