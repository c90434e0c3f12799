// "WhatsApp templates": for each kind of message, the Meta-approved template the Cloud API sends
// when the person has not written to us in the last 24 hours (free text goes only inside that
// window). The template's {{1}}, {{2}}, ... are filled, in order, with the variables named here.
// A kind with no template (or one switched off) goes by e-mail instead, or to the owner's queue.
// "Templates at Meta" (meta-templates.tsx) submits the shop's own templates; the list below is
// for one set by hand.
import { zodResolver } from "@hookform/resolvers/zod";
import { FileText } from "lucide-react";
import { useState } from "react";
import { Controller, type Resolver } from "react-hook-form";
import { type WhatsAppTemplateInput, type WhatsAppTemplateSetting, whatsappTemplateInputSchema } from "@/shared/messaging";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { CheckboxField } from "../../catalogue/components/checkbox-field";
import { Field, FormError } from "../../components/form-field";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/sheet";
import { useServerForm } from "../../components/use-server-form";
import { useWhatsAppTemplates } from "./api/get-whatsapp-templates";
import { useDeleteWhatsAppTemplate, useSaveWhatsAppTemplate } from "./api/save-whatsapp-template";
import { MetaTemplatesCard } from "./meta-templates";
import { TemplateFormButtons } from "./template-form-buttons";

export function WhatsAppTemplatesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <FileText aria-hidden="true" />
        WhatsApp templates
      </Button>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent side="right">{open ? <TemplatesPanel /> : null}</SheetContent>
      </Sheet>
    </>
  );
}

function TemplatesPanel() {
  const { data, isPending, error } = useWhatsAppTemplates();
  const [editing, setEditing] = useState<string | null>(null);
  const byKind = new Map((data?.data ?? []).map((t) => [t.kind, t]));
  return (
    <div className="flex flex-col gap-5 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">WhatsApp templates</SheetTitle>
        <SheetDescription className="text-sm text-ink-muted">
          WhatsApp delivers free text only within 24 hours of the person's last message to you. Outside that window, the Cloud API sends the
          template approved by Meta that you set here for the kind of message. Without one, the message goes by e-mail, or to your "To send
          on WhatsApp" queue.
        </SheetDescription>
      </div>
      {data && !data.cloud_api ? (
        <p className="rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink">
          The WhatsApp Cloud API is not set up (WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID), so every WhatsApp message waits in your queue.
          These settings apply once it is.
        </p>
      ) : null}
      {data?.shop ? <MetaTemplatesCard shop={data.shop} /> : null}
      {data ? <h3 className="font-bold text-ink">Set by hand</h3> : null}
      {data ? (
        <p className="text-sm text-ink-muted">
          A template you made yourself in WhatsApp Manager: its name here, and its parameters as variable names, in the order of the
          template's {"{{1}}"}, {"{{2}}"}, ...: any message offers{" "}
          {data.variables.map((v, i) => (
            <span key={v}>
              {i ? ", " : ""}
              <code className="rounded bg-surface-overlay px-1 text-ink">{v}</code>
            </span>
          ))}
          . A name a message does not have fails that message, with the reason in the outbox.
        </p>
      ) : null}
      {isPending ? <p className="text-sm text-ink-muted">Loading...</p> : null}
      {error ? (
        <p role="alert" className="text-sm text-bad">
          {error.message}
        </p>
      ) : null}
      <ul className="flex flex-col gap-3">
        {(data?.kinds ?? []).map(({ kind, label, variables }) => {
          const setting = byKind.get(kind);
          return (
            <li key={kind} className="rounded-xl border border-line bg-surface-raised p-4">
              {editing === kind ? (
                <TemplateForm
                  kind={kind}
                  label={label}
                  variables={[...(data?.variables ?? []), ...variables]}
                  setting={setting}
                  onDone={() => setEditing(null)}
                />
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <span className="font-medium text-ink">{label}</span>
                    <span className="text-xs break-words text-ink-subtle">
                      {setting
                        ? `${setting.template_name} · ${setting.language_code}${setting.params.length ? ` · ${setting.params.map((p, i) => `{{${i + 1}}} ${p}`).join(", ")}` : ""}${setting.enabled ? "" : " · switched off"}`
                        : "No template"}
                    </span>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setEditing(kind)}
                    aria-label={`${setting ? "Edit" : "Set"} the template for ${label}`}
                  >
                    {setting ? "Edit" : "Set"}
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

interface TemplateFormValues {
  template_name: string;
  language_code: string;
  params: string;
  enabled: boolean;
}

function TemplateForm({
  kind,
  label,
  variables,
  setting,
  onDone,
}: {
  kind: string;
  label: string;
  /** what this kind's messages offer a template */
  variables: readonly string[];
  setting: WhatsAppTemplateSetting | undefined;
  onDone: () => void;
}) {
  const save = useSaveWhatsAppTemplate();
  const remove = useDeleteWhatsAppTemplate();
  const { register, control, errors, isSubmitting, onSubmit } = useServerForm({
    resolver: zodResolver(whatsappTemplateInputSchema) as Resolver<TemplateFormValues, unknown, WhatsAppTemplateInput>,
    defaultValues: {
      template_name: setting?.template_name ?? "",
      language_code: setting?.language_code ?? "en",
      params: setting?.params.join(", ") ?? "",
      enabled: setting?.enabled ?? true,
    },
    send: async (input) => {
      await save.mutateAsync({ kind, input });
      toast.success("Template saved", { description: label });
      onDone();
    },
    failure: { fields: ["template_name", "language_code", "params", "enabled"], toast: "Not saved" },
  });
  const onRemove = () =>
    remove.mutate(kind, {
      onSuccess: () => {
        toast.success("Template removed", { description: label });
        onDone();
      },
      onError: (error) => toast.error("Not removed", { description: error.message }),
    });
  // A bad name arrives as params.<n> (the form holds one text; zod checks each name in it).
  const paramsError = errors.params?.message ?? firstMessage(errors.params);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={`Template for ${label}`}>
      <p className="font-medium text-ink">{label}</p>
      <FormError message={errors.root?.server?.message} />
      <Field
        label="Template name"
        required
        error={errors.template_name?.message}
        hint="As approved in Meta's WhatsApp Manager, e.g. expiry_reminder"
      >
        {(c) => <Input {...c} {...register("template_name")} autoCapitalize="none" spellCheck={false} />}
      </Field>
      <Field label="Language code" required error={errors.language_code?.message} hint="The approved translation: en, en_US, af, zu, ...">
        {(c) => <Input {...c} {...register("language_code")} autoCapitalize="none" spellCheck={false} className="max-w-40" />}
      </Field>
      <Field
        label="Parameters, in order"
        error={paramsError}
        hint={`In the order of {{1}}, {{2}}, ... This kind offers: ${variables.join(", ")}.`}
      >
        {(c) => <Input {...c} {...register("params")} autoCapitalize="none" spellCheck={false} />}
      </Field>
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => <CheckboxField label="Use this template" checked={field.value} onChange={field.onChange} />}
      />
      <TemplateFormButtons busy={isSubmitting} onCancel={onDone}>
        {setting ? (
          <Button variant="ghost" size="sm" onClick={onRemove} disabled={remove.isPending} className="text-bad hover:text-bad">
            Remove
          </Button>
        ) : null}
      </TemplateFormButtons>
    </form>
  );
}

function firstMessage(error: unknown): string | undefined {
  if (Array.isArray(error)) return error.map(firstMessage).find(Boolean);
  return error && typeof error === "object" && "message" in error && typeof error.message === "string" ? error.message : undefined;
}
