// "Change MAC" (issue 32 item 2): a new box (or a typo fixed) moves the line to another MAC
// address. The shared schema checks the address; the server holds the change to its cooldown
// and monthly limit, and a refusal (409) says when it is allowed, shown in the dialog as it came.
// The form is the confirmation: it says the old box stops playing before the button is pressed.
import { zodResolver } from "@hookform/resolvers/zod";
import { type FormEvent, useRef } from "react";
import { type Resolver, useForm, useWatch } from "react-hook-form";
import { type MacChange, macChangeSchema } from "@/shared/device-line-schemas";
import { LINE_TYPE_LABELS, macWarning } from "@/shared/device-lines";
import { MAC_INPUT_PROPS, MacWarning } from "@/web/components/device-line-field";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { attemptKey, useChangeMac } from "../api/line-self-service";
import { Field } from "./field";
import { applyFieldErrors, errorMessage } from "./server-errors";

export interface MacChangeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  type: "mag" | "enigma2";
  currentMac: string;
}

export function MacChangeDialog({ open, onOpenChange, type, currentMac }: MacChangeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted only while open: each opening starts empty. */}
        <MacChangeForm type={type} currentMac={currentMac} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function MacChangeForm({ type, currentMac, onDone }: { type: "mag" | "enigma2"; currentMac: string; onDone: () => void }) {
  const change = useChangeMac();
  const { register, handleSubmit, setError, control, formState } = useForm<{ mac: string }, unknown, MacChange>({
    // The schema takes the address as typed (it tidies case and dashes first): a string here.
    resolver: zodResolver(macChangeSchema) as unknown as Resolver<{ mac: string }, unknown, MacChange>,
    defaultValues: { mac: "" },
  });
  const { errors, isSubmitting } = formState;
  const typed = useWatch({ control, name: "mac" });
  const warning = errors.mac ? "" : macWarning(type, typed);
  const what = type === "mag" ? "box" : "receiver";
  // One key per attempt at one address: a retry after a lost answer is the same change.
  const attempt = useRef<{ mac: string; key: string } | null>(null);

  const save = handleSubmit(async ({ mac }) => {
    if (attempt.current?.mac !== mac) attempt.current = { mac, key: attemptKey() };
    try {
      const answer = await change.mutateAsync({ mac, key: attempt.current.key });
      toast.success("MAC change asked for", {
        description: `Your line is moving to ${answer.new_mac}. Your line card shows the new address once it is done.`,
      });
      onDone();
    } catch (error) {
      // 400 on the field; 409 (too soon, the limit, the same address) with when it is allowed.
      if (applyFieldErrors(error, setError, ["mac"])) return;
      setError("root.server", { type: "server", message: errorMessage(error) });
      if (!(error instanceof ApiError) || error.status !== 409) attempt.current = null;
    }
  });
  // The dialog's form lives in a portal, but React still bubbles its submit to the page's form.
  const onSubmit = (event: FormEvent) => {
    event.stopPropagation();
    return save(event);
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Change your {what}'s MAC address</DialogTitle>
        <DialogDescription>
          Your line moves to the {LINE_TYPE_LABELS[type]} with the new MAC address. The {what} with{" "}
          <span className="font-mono">{currentMac}</span> stops playing.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Change MAC address">
        <Field
          id="new-mac"
          label="New MAC address"
          hint="As printed on the sticker under the box, e.g. 00:1A:79:12:34:56."
          error={errors.mac?.message}
        >
          <Input {...MAC_INPUT_PROPS} className="font-mono uppercase placeholder:normal-case" {...register("mac")} />
        </Field>
        <MacWarning warning={warning} />
        {errors.root?.server ? (
          <p role="alert" data-testid="mac-change-error" className="rounded-xl bg-bad/10 p-3 text-sm text-ink ring-1 ring-bad/30">
            {errors.root.server.message}
          </p>
        ) : null}
        <DialogFooter className="mt-2">
          <Button variant="outline" onClick={onDone} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting} aria-disabled={isSubmitting}>
            {isSubmitting ? "Changing..." : "Change MAC address"}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
