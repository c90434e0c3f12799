// Changing the WhatsApp number or e-mail address (issue 24): the portal no longer saves a new
// contact straight away (PATCH /api/client/me refuses one). Step 1 sends a code to the new
// number or address; step 2 takes the code, and only then does the contact change.
import { zodResolver } from "@hookform/resolvers/zod";
import { type FormEvent, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type ContactChangeInput,
  type ContactChangeStarted,
  contactChangeConfirmSchema,
  contactChangeSchema,
} from "@/shared/client-schemas";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { useConfirmContactChange, useStartContactChange } from "../api/contact-change";
import { Field } from "./field";
import { applyFieldErrors, errorMessage } from "./server-errors";

export type ContactKind = "whatsapp" | "email";

const WORDS = {
  whatsapp: {
    title: "Change your WhatsApp number",
    label: "New WhatsApp number",
    intro: "We'll send a code to the new number by WhatsApp. Your number changes once you enter it.",
    done: "WhatsApp number changed",
  },
  email: {
    title: "Change your e-mail address",
    label: "New e-mail address",
    intro: "We'll send a code to the new address. Your address changes once you enter it.",
    done: "E-mail address changed",
  },
} as const;

export interface ContactChangeDialogProps {
  kind: ContactKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ContactChangeDialog({ kind, open, onOpenChange }: ContactChangeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted only while open: each opening starts again at step 1. */}
        <ContactChangeSteps kind={kind} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

/** The dialog's forms live in a portal, but React still bubbles their submit to the page's form. */
const own = (submit: (event?: FormEvent) => Promise<void>) => (event: FormEvent) => {
  event.stopPropagation();
  return submit(event);
};

function ContactChangeSteps({ kind, onDone }: { kind: ContactKind; onDone: () => void }) {
  const words = WORDS[kind];
  const [started, setStarted] = useState<ContactChangeStarted | null>(null);
  const start = useStartContactChange();
  const confirm = useConfirmContactChange();

  const contact = useForm<ContactChangeInput>({
    resolver: zodResolver(contactChangeSchema),
    defaultValues: { [kind]: "" },
  });
  const code = useForm<{ code: string }>({
    resolver: zodResolver(contactChangeConfirmSchema),
    defaultValues: { code: "" },
  });

  const send = contact.handleSubmit(async (values) => {
    try {
      setStarted(await start.mutateAsync({ [kind]: values[kind] }));
      code.reset({ code: "" });
    } catch (error) {
      // 409 (the number is on another account, or no code can reach it now: the words say what works),
      // 400 (same as now): on the field; 429 and the rest too.
      if (!applyFieldErrors(error, contact.setError, [kind])) contact.setError(kind, { type: "server", message: errorMessage(error) });
    }
  });

  const check = code.handleSubmit(async (values) => {
    try {
      await confirm.mutateAsync(values.code);
      toast.success(words.done, { description: `We'll use ${started?.sentTo ?? "it"} from now on.` });
      onDone();
    } catch (error) {
      if (!applyFieldErrors(error, code.setError, ["code"])) code.setError("code", { type: "server", message: errorMessage(error) });
    }
  });

  const { setFocus } = code;
  useEffect(() => {
    if (started) setFocus("code");
  }, [started, setFocus]);

  if (!started) {
    const error = contact.formState.errors[kind]?.message;
    return (
      <>
        <DialogHeader>
          <DialogTitle>{words.title}</DialogTitle>
          <DialogDescription>{words.intro}</DialogDescription>
        </DialogHeader>
        <form onSubmit={own(send)} noValidate className="flex flex-col gap-4">
          <Field id={`new-${kind}`} label={words.label} error={error}>
            {kind === "whatsapp" ? (
              <Input type="tel" inputMode="tel" autoComplete="tel" placeholder="+27XXXXXXXXX" {...contact.register("whatsapp")} />
            ) : (
              <Input type="email" inputMode="email" autoComplete="email" autoCapitalize="none" {...contact.register("email")} />
            )}
          </Field>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" disabled={contact.formState.isSubmitting}>
              {contact.formState.isSubmitting ? "Sending..." : "Send code"}
            </Button>
          </DialogFooter>
        </form>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{words.title}</DialogTitle>
        <DialogDescription>We sent a code to {started.sentTo}.</DialogDescription>
      </DialogHeader>
      <form onSubmit={own(check)} noValidate className="flex flex-col gap-4">
        <Field id="contact-change-code" label="Code" hint="The 6 digits in the message." error={code.formState.errors.code?.message}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono text-lg tracking-[0.3em]"
            {...code.register("code")}
          />
        </Field>
        <button
          type="button"
          onClick={() => {
            // Step 1 comes back with what they typed (its input mounts anew and takes the form's defaults).
            contact.reset(contact.getValues());
            setStarted(null);
            code.clearErrors();
          }}
          className="inline-flex min-h-11 w-fit items-center text-sm text-accent-ink underline"
        >
          Send a new code
        </button>
        <DialogFooter className="mt-2">
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={code.formState.isSubmitting}>
            {code.formState.isSubmitting ? "Confirming..." : "Confirm"}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
