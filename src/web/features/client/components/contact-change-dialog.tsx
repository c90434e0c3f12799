// Changing the WhatsApp number or e-mail address (issue 24): the portal no longer saves a new
// contact straight away (PATCH /api/client/me refuses one). Step 1 sends a code to the new
// number or address; step 2 takes the code, and only then does the contact change. A new number
// may also be proved by writing to us (issue 41): the answer's waLink opens WhatsApp with a code
// to send from it; meanwhile the profile is asked after and the dialog closes once it changed.
// With no code route that link is the only way (sentTo is then empty).
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type ContactChangeInput,
  type ContactChangeStarted,
  contactChangeConfirmSchema,
  contactChangeSchema,
} from "@/shared/client-schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { SendCodeOnWhatsApp } from "@/web/components/send-code-on-whatsapp";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { useConfirmContactChange, useStartContactChange } from "../api/contact-change";
import { meQuery } from "../api/get-me";
import { Field } from "./field";
import { applyFieldErrors, errorMessage } from "./server-errors";

export type ContactKind = "whatsapp" | "email";

const WORDS = {
  whatsapp: {
    title: "Change your WhatsApp number",
    label: "New WhatsApp number",
    intro: "We'll send a code to the new number by WhatsApp, or you send one to us from it. Your number changes once it is confirmed.",
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

/** How often the profile is asked after while a code written to us may confirm the new number. */
export const CONTACT_CHANGE_POLL_MS = 3000;

function ContactChangeSteps({ kind, onDone }: { kind: ContactKind; onDone: () => void }) {
  const words = WORDS[kind];
  const [started, setStarted] = useState<ContactChangeStarted | null>(null);
  const start = useStartContactChange();
  const confirm = useConfirmContactChange();
  // the new number in digits, to see when the profile has it (a message from it confirmed it)
  const wanted = useRef("");
  const waiting = Boolean(started?.waLink);
  const me = useQuery({ ...meQuery, enabled: waiting, refetchInterval: waiting ? CONTACT_CHANGE_POLL_MS : false });
  const changed = waiting && Boolean(wanted.current) && (me.data?.whatsapp ?? "").replace(/\D/g, "") === wanted.current;
  useEffect(() => {
    if (!changed) return;
    toast.success(words.done, { description: "Confirmed by your WhatsApp message." });
    onDone();
  }, [changed, onDone, words.done]);

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
      wanted.current = kind === "whatsapp" ? (toStoredWhatsApp(values.whatsapp ?? "") ?? "") : "";
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
        <DialogDescription>
          {started.sentTo ? `We sent a code to ${started.sentTo}.` : "Send us a code on WhatsApp from the new number to confirm it."}
        </DialogDescription>
      </DialogHeader>
      {started.waLink ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-ink-muted">
            {started.sentTo
              ? "Or tap the button and send the message from the new number: "
              : "Tap the button and send the message from the new number: "}
            it changes here by itself.
          </p>
          <SendCodeOnWhatsApp href={started.waLink} primary={!started.sentTo} />
        </div>
      ) : null}
      <form onSubmit={own(check)} noValidate className="flex flex-col gap-4">
        {started.sentTo ? (
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
        ) : null}
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
          {started.sentTo ? (
            <Button type="submit" disabled={code.formState.isSubmitting}>
              {code.formState.isSubmitting ? "Confirming..." : "Confirm"}
            </Button>
          ) : null}
        </DialogFooter>
      </form>
    </>
  );
}
