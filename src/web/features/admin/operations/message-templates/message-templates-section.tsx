// /admin/message-templates: the words of the messages the shop sends on its own (welcome, line
// details, receipt, expiry reminders, trial ending, password reset). The owner picks one, edits its
// subject and message with the variables as chips, previews it with a real client's data (secrets
// are never shown), saves, or resets it to the default. One form, react-hook-form over the shared
// schema for that kind (unknown variables are refused by field, here and by the server).
import { zodResolver } from "@hookform/resolvers/zod";
import { Eye, RotateCcw, Save } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { AdminClient } from "@/shared/business-schemas";
import {
  type MessageTemplateEntry,
  type MessageTemplateInput,
  type MessageTemplatePreview,
  messageTemplateSchemaFor,
  type TemplateKind,
} from "@/shared/message-templates";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { ClientPicker } from "../../components/client-picker";
import { Field, FormError, setServerErrors, toastServerErrors } from "../../components/form-field";
import { useMessageTemplates, usePreviewMessageTemplate, useResetMessageTemplate, useSaveMessageTemplate } from "./api/message-templates";

const FIELDS = ["subject", "body"] as const;

export function MessageTemplatesSection() {
  const templates = useMessageTemplates();
  const [selected, setSelected] = useState<string | null>(null);
  const list = templates.data ?? [];
  const current = list.find((t) => t.kind === selected) ?? list[0] ?? null;

  return (
    <>
      <AdminPageHeader
        title="Message templates"
        description="The words of the messages the shop sends by itself. Edit one, preview it with a real client's details, and save."
      />
      {templates.isError ? <p className="text-sm text-bad">Couldn't load the message templates. Please refresh.</p> : null}
      {templates.isPending ? <p className="text-sm text-ink-muted">Loading...</p> : null}
      {current ? (
        <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
          <nav aria-label="Messages">
            <ul className="flex flex-col gap-1">
              {list.map((t) => (
                <li key={t.kind}>
                  <button
                    type="button"
                    aria-pressed={t.kind === current.kind}
                    onClick={() => setSelected(t.kind)}
                    className={cn(
                      "flex min-h-12 w-full items-center justify-between gap-3 rounded-xl border px-3 py-2 text-left text-sm",
                      t.kind === current.kind ? "border-accent bg-accent/10" : "border-line hover:bg-surface-raised",
                    )}
                  >
                    <span className="font-medium text-ink">{t.label}</span>
                    {t.is_default ? null : <Badge variant="accent">Edited</Badge>}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <TemplateEditor key={`${current.kind}:${current.updated_at ?? "default"}`} template={current} />
        </div>
      ) : null}
    </>
  );
}

function TemplateEditor({ template }: { template: MessageTemplateEntry }) {
  const save = useSaveMessageTemplate();
  const resetToDefault = useResetMessageTemplate();
  const preview = usePreviewMessageTemplate();
  const [client, setClient] = useState<AdminClient | null>(null);
  const [shown, setShown] = useState<MessageTemplatePreview | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    trigger,
    formState: { errors, isDirty },
  } = useForm<MessageTemplateInput>({
    resolver: zodResolver(messageTemplateSchemaFor(template.kind as TemplateKind)),
    defaultValues: { subject: template.subject, body: template.body },
  });
  const { ref: bodyFieldRef, ...bodyField } = register("body");

  // A chip puts its variable where the cursor is in the message (at the end when it has no focus).
  const insert = (name: string) => {
    const text = getValues("body");
    const area = bodyRef.current;
    const at = area && document.activeElement === area ? area.selectionStart : text.length;
    const end = area && document.activeElement === area ? area.selectionEnd : text.length;
    const token = `{{${name}}}`;
    setValue("body", `${text.slice(0, at)}${token}${text.slice(end)}`, { shouldDirty: true, shouldValidate: Boolean(errors.body) });
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const showPreview = async (forClient: AdminClient | null = client) => {
    if (!forClient) return;
    if (!(await trigger())) return;
    try {
      setShown(await preview.mutateAsync({ kind: template.kind, clientId: forClient.id, input: getValues() }));
    } catch (error) {
      setShown(null);
      toastServerErrors(error, setError, FIELDS, "Couldn't show the preview", "");
    }
  };

  const onSubmit = handleSubmit(async (input) => {
    try {
      await save.mutateAsync({ kind: template.kind, input });
      toast.success(`${template.label} saved`, { description: "The next message of this kind uses it." });
    } catch (error) {
      setServerErrors(error, setError, FIELDS);
      toast.error("Not saved", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  const onReset = async () => {
    try {
      await resetToDefault.mutateAsync(template.kind);
      toast.success(`${template.label} is back to the default`);
    } catch (error) {
      toast.error("Not reset", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <Card className="flex min-w-0 flex-col gap-5 p-5 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold text-ink">{template.label}</h2>
        <p className="text-sm text-ink-muted">
          Sent {template.sent_when}.{" "}
          {template.is_default ? "This is the default text." : `Edited${template.updated_by ? ` by ${template.updated_by}` : ""}.`}
        </p>
      </div>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormError message={errors.root?.server?.message} />
        <Field label="Subject" required hint="The e-mail's subject line (WhatsApp messages have none)" error={errors.subject?.message}>
          {(c) => <Input {...c} {...register("subject")} maxLength={200} />}
        </Field>
        <Field
          label="Message"
          required
          hint="Sent by e-mail or on WhatsApp, so it never says “e-mail”. A line whose variables are all empty for a client is left out."
          error={errors.body?.message}
        >
          {(c) => (
            <Textarea
              {...c}
              {...bodyField}
              ref={(el) => {
                bodyFieldRef(el);
                bodyRef.current = el;
              }}
              rows={14}
              maxLength={5000}
              className="font-mono text-sm"
            />
          )}
        </Field>
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-medium text-ink">Variables</h3>
          <p className="text-xs text-ink-subtle">
            Tap one to put it in the message. Secret ones are filled in only as the message is sent
            {template.required.length ? `; the message must keep ${template.required.map((v) => `{{${v}}}`).join(", ")}` : ""}.
          </p>
          <ul className="flex flex-wrap gap-2" aria-label="Variables">
            {template.variables.map((v) => (
              <li key={v.name}>
                <button
                  type="button"
                  onClick={() => insert(v.name)}
                  title={v.help}
                  className="min-h-11 rounded-full border border-line bg-surface-raised px-3 py-1 font-mono text-xs text-ink hover:border-accent"
                >
                  {`{{${v.name}}}`}
                  <span className="sr-only">: {v.help}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>

        <div className="flex flex-col gap-3 rounded-xl border border-line bg-surface-raised p-4">
          <ClientPicker
            label="Preview with a client"
            value={client}
            onChange={(picked) => {
              setClient(picked);
              setShown(null);
              if (picked) void showPreview(picked);
            }}
          />
          <div className="flex justify-end">
            <Button type="button" variant="outline" size="sm" onClick={() => void showPreview()} disabled={!client || preview.isPending}>
              <Eye aria-hidden="true" />
              {preview.isPending ? "Filling in..." : "Preview"}
            </Button>
          </div>
          <div aria-live="polite">
            {shown ? (
              <div data-testid="template-preview" className="flex flex-col gap-2">
                <p className="text-sm text-ink-muted">
                  As {shown.client_name} would get it. Subject: <span className="font-medium text-ink">{shown.subject}</span>
                </p>
                <pre className="overflow-x-auto rounded-lg border border-line bg-canvas p-3 text-sm whitespace-pre-wrap text-ink">
                  {shown.body}
                </pre>
              </div>
            ) : null}
          </div>
        </div>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button type="button" variant="outline" onClick={onReset} disabled={template.is_default || resetToDefault.isPending}>
            <RotateCcw aria-hidden="true" />
            {resetToDefault.isPending ? "Resetting..." : "Reset to default"}
          </Button>
          <Button type="submit" disabled={save.isPending || !isDirty}>
            <Save aria-hidden="true" />
            {save.isPending ? "Saving..." : "Save"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
