// 'Reset portal password': asks first (their sessions end), then says where the link to choose a
// new password was queued (masked). No password is ever shown.
import { useState } from "react";
import type { QueuedTo } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { toast } from "@/web/lib/toast";
import { useResetClientPassword } from "./api/reset-client-password";
import type { ClientDialogProps } from "./client-dialog";
import { QueuedToNote } from "./queued-to";

export function ResetPasswordDialog({ client, open, onOpenChange }: ClientDialogProps) {
  const reset = useResetClientPassword();
  const [queuedTo, setQueuedTo] = useState<QueuedTo[] | null>(null);
  const close = (next: boolean) => {
    if (reset.isPending) return;
    onOpenChange(next);
    if (!next) setQueuedTo(null);
  };
  const run = async () => {
    try {
      const answer = await reset.mutateAsync(client.id);
      setQueuedTo(answer.queued_to);
      toast.success("Password reset", { description: `${client.full_name} was signed out of the portal everywhere.` });
    } catch (error) {
      toast.error("Password not reset", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{queuedTo ? "Password reset" : "Reset portal password?"}</DialogTitle>
          <DialogDescription>
            {queuedTo
              ? `${client.full_name}'s old password no longer works. They choose a new one with the link.`
              : `${client.full_name}'s password stops working, they are signed out of the client portal on every device, and they are sent a link to choose a new one.`}
          </DialogDescription>
        </DialogHeader>
        {queuedTo ? <QueuedToNote what="A link to choose a new password" targets={queuedTo} /> : null}
        <DialogFooter>
          {queuedTo ? (
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
