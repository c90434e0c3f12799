// "Templates at Meta": the templates the shop uses, submitted to the WhatsApp Business Account in
// one tap, each with Meta's review state (read again on demand and daily). An approved one is
// used at once; the owner may change a template's words until Meta has it. Meta's refusal is
// shown in Meta's own words; a state we do not know shows as unknown, never as approved.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type ShopTemplatesView,
  type ShopTemplateView,
  type TemplateState,
  type TemplateWordsInput,
  templateWordsSchema,
} from "@/shared/whatsapp-templates";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { Field, FormError, showServerErrors } from "../../components/form-field";
import { useSaveTemplateWords } from "./api/save-template-words";
import { useRefreshWhatsAppTemplates, useSubmitWhatsAppTemplates } from "./api/submit-whatsapp-templates";
import { TemplateFormButtons } from "./template-form-buttons";

const STATES: Record<TemplateState, { label: string; variant: BadgeVariant }> = {
  not_submitted: { label: "Not submitted", variant: "neutral" },
  refused: { label: "Refused by Meta", variant: "bad" },
  pending: { label: "In review", variant: "warn" },
  approved: { label: "Approved: in use", variant: "ok" },
  rejected: { label: "Rejected", variant: "bad" },
  paused: { label: "Paused by Meta", variant: "warn" },
  disabled: { label: "Disabled by Meta", variant: "bad" },
  unknown: { label: "Unknown", variant: "neutral" },
};

export function MetaTemplatesCard({ shop }: { shop: ShopTemplatesView }) {
  const submit = useSubmitWhatsAppTemplates();
  const refresh = useRefreshWhatsAppTemplates();
  const busy = submit.isPending || refresh.isPending;
  const failure = submit.error ?? refresh.error;
  const onSubmit = () =>
    submit.mutate(undefined, {
      onSuccess: ({ data }) => {
        const refused = Object.keys(data.refused).length;
        const description = `${data.created.length} submitted${refused ? `, ${refused} refused by Meta` : ""}. Meta reviews them, usually within a day.`;
        if (refused) toast.error("Some templates were refused", { description });
        else toast.success("Templates submitted to Meta", { description });
      },
    });
  return (
    <section aria-labelledby="meta-templates-title" className="flex flex-col gap-3 rounded-xl border border-line bg-surface-raised p-4">
      <div className="flex flex-col gap-1">
        <h3 id="meta-templates-title" className="font-bold text-ink">
          Templates at Meta
        </h3>
        <p className="text-sm text-ink-muted">
          Meta must approve a template before WhatsApp carries it outside the 24-hour window. Submit the shop's templates in one go; each is
          used as soon as Meta approves it. States are read again every day, or now with Refresh.
        </p>
      </div>
      {shop.missing.length ? (
        <p className="rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink">
          Set {shop.missing.join(" and ")} on the server to submit templates.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onSubmit} disabled={busy || shop.missing.length > 0}>
          {submit.isPending ? "Submitting..." : "Submit templates to Meta"}
        </Button>
        <Button variant="outline" size="sm" onClick={() => refresh.mutate()} disabled={busy || shop.missing.length > 0}>
          {refresh.isPending ? "Refreshing..." : "Refresh states"}
        </Button>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-bad">
          {failure.message}
        </p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {shop.templates.map((template) => (
          <ShopTemplateItem key={template.kind} template={template} />
        ))}
      </ul>
    </section>
  );
}

function ShopTemplateItem({ template }: { template: ShopTemplateView }) {
  const [editing, setEditing] = useState(false);
  const state = STATES[template.state];
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-line p-3" aria-label={template.label}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="font-medium text-ink">{template.label}</span>
          <span className="text-xs break-words text-ink-subtle">
            {template.name} · {template.language} ·{" "}
            {template.category === "AUTHENTICATION" ? "authentication (copy-code button)" : "utility"}
          </span>
        </div>
        <Badge variant={state.variant}>
          {state.label}
          {template.state === "unknown" && template.meta_status ? ` (${template.meta_status})` : ""}
        </Badge>
      </div>
      {template.set_by_hand ? <p className="text-xs text-ink-muted">Set by hand below: submitting leaves it alone.</p> : null}
      {template.state === "rejected" ? (
        <p className="text-sm text-bad">Meta's reason: {template.rejected_reason ?? "not given"}. Change the words in WhatsApp Manager.</p>
      ) : null}
      {template.state === "refused" && template.error ? <p className="text-sm text-bad">Meta said: {template.error}</p> : null}
      {template.state === "unknown" ? <p className="text-xs text-ink-muted">Not used until Meta says it is approved.</p> : null}
      {template.category === "UTILITY" && !template.set_by_hand ? (
        editing ? (
          <WordsForm template={template} onDone={() => setEditing(false)} />
        ) : (
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="text-sm whitespace-pre-wrap text-ink-muted">{template.words}</p>
            {template.editable ? (
              <Button variant="outline" size="sm" onClick={() => setEditing(true)} aria-label={`Edit the words for ${template.label}`}>
                Edit words
              </Button>
            ) : null}
          </div>
        )
      ) : null}
    </li>
  );
}

function WordsForm({ template, onDone }: { template: ShopTemplateView; onDone: () => void }) {
  const save = useSaveTemplateWords();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TemplateWordsInput>({
    resolver: zodResolver(templateWordsSchema(template.kind)),
    defaultValues: { words: template.words },
  });
  const onSubmit = handleSubmit(async ({ words }) => {
    try {
      await save.mutateAsync({ kind: template.kind, words });
      toast.success("Words saved", { description: template.label });
      onDone();
    } catch (error) {
      showServerErrors(error, setError, ["words"], "Not saved: please try again.");
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label={`Words for ${template.label}`}>
      <FormError message={errors.root?.server?.message} />
      <Field
        label="Words"
        error={errors.words?.message}
        hint={`Variables: ${template.variables.map((v) => `{{${v}}}`).join(", ")}. Not at the very start or end.`}
      >
        {(c) => <Textarea {...c} {...register("words")} />}
      </Field>
      <TemplateFormButtons busy={isSubmitting} onCancel={onDone} />
    </form>
  );
}
