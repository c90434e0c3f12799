// Self-service under the line card (issue 32 item 2), for a line that is on the panel: a box's
// "Change MAC" (the form in mac-change-dialog.tsx; a change under way shows until the panel has
// it) and "Reset ISP lock" for anyone whose line stopped after moving to a new internet
// connection, confirmed first. Each says only what happened: asked for, or why not.
import { useQueryClient } from "@tanstack/react-query";
import { ArrowRightLeft, CheckCircle2, Loader2, RotateCcw } from "lucide-react";
import { useRef, useState } from "react";
import type { ClientLine } from "@/shared/client-schemas";
import { formatDateTime } from "@/shared/dates";
import { needsMac } from "@/shared/device-lines";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { attemptKey, type IspResetAnswer, useResetIspLock } from "../api/line-self-service";
import { clientKeys } from "../client-keys";
import { MacChangeDialog } from "./mac-change-dialog";
import { errorMessage } from "./server-errors";

export const LINE_ACTION_MESSAGES = {
  ispConfirm:
    "Use this if your line stopped playing after you moved house or changed internet provider: your line is unlocked from the old connection so it plays on the new one.",
  ispDone: "Reset asked for. Try playing again in a few minutes.",
  ispDoneByHand: "Reset asked for. We do this by hand on our side: try playing again in a while, and message us if it still doesn't play.",
} as const;

export function LineActions({ line }: { line: ClientLine }) {
  const [open, setOpen] = useState<"mac" | "isp" | null>(null);
  const [ispDone, setIspDone] = useState<IspResetAnswer["by"] | null>(null);
  const box = needsMac(line.type);
  if (!line.self_service) return null;
  return (
    <section aria-labelledby="line-actions-heading" className="flex flex-col gap-3 border-t border-line pt-4" data-testid="line-actions">
      <h3 id="line-actions-heading" className="text-sm font-semibold text-ink">
        Manage your line
      </h3>
      {box && line.mac_change ? (
        <p role="status" className="rounded-xl bg-accent/10 p-3 text-sm text-ink ring-1 ring-accent/30" data-testid="mac-change-pending">
          Your line is moving to the {line.type === "mag" ? "box" : "receiver"} with MAC address{" "}
          <span className="font-mono font-semibold">{line.mac_change.new_mac}</span> (asked for{" "}
          {formatDateTime(line.mac_change.requested_at)}
          ). This card shows the new address once it is done.
        </p>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {box ? (
          <Button variant="outline" onClick={() => setOpen("mac")}>
            <ArrowRightLeft aria-hidden="true" />
            Change MAC
          </Button>
        ) : null}
        <Button
          variant="outline"
          onClick={() => {
            setIspDone(null);
            setOpen("isp");
          }}
        >
          <RotateCcw aria-hidden="true" />
          Reset ISP lock
        </Button>
      </div>
      {ispDone ? (
        <p role="status" className="flex items-start gap-2 text-sm text-ink" data-testid="isp-reset-done">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ok" />
          {ispDone === "owner" ? LINE_ACTION_MESSAGES.ispDoneByHand : LINE_ACTION_MESSAGES.ispDone}
        </p>
      ) : null}
      {box ? (
        <MacChangeDialog
          open={open === "mac"}
          onOpenChange={(next) => setOpen(next ? "mac" : null)}
          type={line.type as "mag" | "enigma2"}
          currentMac={line.mac}
        />
      ) : null}
      <IspResetDialog
        open={open === "isp"}
        onOpenChange={(next) => setOpen(next ? "isp" : null)}
        onDone={(by) => {
          setOpen(null);
          setIspDone(by);
        }}
      />
    </section>
  );
}

function IspResetDialog({
  open,
  onOpenChange,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: (by: IspResetAnswer["by"]) => void;
}) {
  const reset = useResetIspLock();
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  // One key per opening of the dialog: pressing again after a lost answer asks once.
  const key = useRef(attemptKey());
  const confirm = async () => {
    setError("");
    try {
      const answer = await reset.mutateAsync(key.current);
      key.current = attemptKey();
      void queryClient.invalidateQueries({ queryKey: clientKeys.me });
      onDone(answer.by);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (reset.isPending) return;
        setError("");
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reset your ISP lock?</DialogTitle>
          <DialogDescription>{LINE_ACTION_MESSAGES.ispConfirm}</DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="rounded-xl bg-bad/10 p-3 text-sm text-ink ring-1 ring-bad/30" data-testid="isp-reset-error">
            {error}
          </p>
        ) : null}
        <DialogFooter className="mt-2">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={reset.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={reset.isPending} aria-disabled={reset.isPending}>
            {reset.isPending ? <Loader2 aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
            {reset.isPending ? "Resetting..." : "Reset ISP lock"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
