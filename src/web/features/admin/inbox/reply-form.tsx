// The reply box: free text through the WhatsApp Cloud API while the number's 24-hour window is
// open (the server answers 409 when it is not: only a template may go then); without the Cloud
// API the reply is kept as the owner's and the wa.me link that sends it is shown to tap.
// react-hook-form over the shared inboxReplySchema.
import { zodResolver } from "@hookform/resolvers/zod";
import { Send } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { type InboxReply, type InboxReplyInput, inboxReplySchema, REPLY_MAX_CHARS } from "@/shared/inbox-schemas";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { Field, FormError, toastServerErrors } from "../components/form-field";
import { formatDateTime } from "../components/format";
import { useInboxReply } from "./api/inbox-api";

function windowHint(windowOpenUntil: string | null, cloudApi: boolean): string {
  if (!cloudApi) return "The WhatsApp Cloud API is not set up: your reply opens in WhatsApp for you to send.";
  if (windowOpenUntil) return `Free text may go until ${formatDateTime(windowOpenUntil)}.`;
  return "They have not written in the last 24 hours: WhatsApp only lets a template through now.";
}

/** Text a quick action puts in the box for the owner to check and send. */
export interface Draft {
  text: string;
}

export function ReplyForm({
  number,
  windowOpenUntil,
  cloudApi,
  draft = null,
}: {
  number: string;
  windowOpenUntil: string | null;
  cloudApi: boolean;
  draft?: Draft | null;
}) {
  const send = useInboxReply(number);
  const [waLink, setWaLink] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    setFocus,
    formState: { errors },
  } = useForm<InboxReplyInput, unknown, InboxReply>({ resolver: zodResolver(inboxReplySchema), defaultValues: { text: "" } });

  useEffect(() => {
    if (!draft) return;
    setValue("text", draft.text, { shouldDirty: true });
    setFocus("text");
  }, [draft, setValue, setFocus]);

  const submit = handleSubmit(async ({ text }) => {
    setWaLink(null);
    try {
      const result = await send.mutateAsync(text);
      reset({ text: "" });
      if (result.waLink) {
        setWaLink(result.waLink);
        toast.success("Reply saved", { description: "Open WhatsApp to send it." });
      } else {
        toast.success("Reply sent", { description: "It shows in the conversation with its delivery status." });
      }
    } catch (error) {
      toastServerErrors(error, setError, ["text"], "Reply not sent");
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-surface p-3 sm:p-4">
      <FormError message={errors.root?.server?.message} />
      <Field label="Reply" error={errors.text?.message} hint={windowHint(windowOpenUntil, cloudApi)}>
        {(control) => <Textarea {...control} rows={3} maxLength={REPLY_MAX_CHARS + 200} {...register("text")} />}
      </Field>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {waLink ? (
          <a href={waLink} target="_blank" rel="noreferrer" className={buttonClasses({ variant: "special" })}>
            Open WhatsApp to send
          </a>
        ) : null}
        <Button type="submit" disabled={send.isPending}>
          <Send aria-hidden="true" />
          {send.isPending ? "Sending..." : "Send"}
        </Button>
      </div>
    </form>
  );
}
