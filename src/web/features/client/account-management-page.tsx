// /account-management: contact details and preferred channel, the marketing choice (POPIA: a
// separate, unticked opt-in that says what it is for, with when it was given), status updates (issue 13) and the password.
import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound, Megaphone, UserRound } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import {
  type ClientProfile,
  COMMUNICATION_METHODS,
  MARKETING_CONSENT_TEXT,
  passwordChangeSchema,
  profilePatchSchema,
} from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { PASSWORD_MIN } from "@/shared/schemas";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { useChangePassword } from "./api/change-password";
import { useMe } from "./api/get-me";
import { useUpdateMe } from "./api/update-me";
import { BillingDetailsCard } from "./components/billing-details-form";
import { ContactChangeDialog, type ContactKind } from "./components/contact-change-dialog";
import { DataRequestsCard } from "./components/data-requests-card";
import { DownloadMyDataCard } from "./components/download-my-data";
import { Field } from "./components/field";
import { LoadError } from "./components/load-error";
import { PortalPage } from "./components/portal-page";
import { applyFieldErrors, errorMessage } from "./components/server-errors";
import { StatusUpdatesCard } from "./components/status-updates-card";

export function AccountManagementPage() {
  return (
    <PortalPage title="Account management" description="Your contact details, how we reach you, and your password." skeleton="form">
      {() => <AccountContent />}
    </PortalPage>
  );
}

function AccountContent() {
  const me = useMe();
  if (me.isPending) return <PageSkeleton variant="form" />;
  if (!me.data) return <LoadError what="your account" onRetry={() => me.refetch()} />;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div className="flex flex-col gap-5">
        <ContactForm profile={me.data} />
        <BillingDetailsCard />
        <DownloadMyDataCard />
        <DataRequestsCard />
      </div>
      <div className="flex flex-col gap-5">
        <MarketingChoice profile={me.data} />
        <StatusUpdatesCard />
        <PasswordForm />
      </div>
    </div>
  );
}

const CHANNEL_LABELS = { whatsapp: "WhatsApp", email: "E-mail" } as const;

// The WhatsApp number and e-mail address are not on this form: a new one needs a code sent to it
// (ContactChangeDialog; PATCH /api/client/me refuses a new one, issue 24).
const contactSchema = z.object({
  full_name: profilePatchSchema.shape.full_name.unwrap(),
  communication_method: z.enum(COMMUNICATION_METHODS, { error: "Choose WhatsApp or email" }),
});
type ContactValues = z.output<typeof contactSchema>;

const contactValues = (p: ClientProfile): ContactValues => ({
  full_name: p.full_name,
  communication_method: p.communication_method,
});

function ContactForm({ profile }: { profile: ClientProfile }) {
  const update = useUpdateMe();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: contactValues(profile) });
  const method = watch("communication_method");
  // which contact the dialog changes, kept while it closes so its words don't switch
  const [kind, setKind] = useState<ContactKind>("whatsapp");
  const [changing, setChanging] = useState(false);
  const change = (next: ContactKind) => {
    setKind(next);
    setChanging(true);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      reset(contactValues(saved));
      toast.success("Details Saved", { description: "Your contact details have been updated." });
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["full_name", "communication_method"]))
        toast.error("Save Failed", { description: errorMessage(error) });
    }
  });

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="contact-heading">
      <h2 id="contact-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <UserRound aria-hidden="true" className="size-5 text-accent-ink" />
        Contact details
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Username: <span className="font-mono text-ink">{profile.username}</span> (ask us if it needs to change).
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-5 flex flex-col gap-4">
        <Field id="account-name" label="Full name" error={errors.full_name?.message}>
          <Input autoComplete="name" {...register("full_name")} />
        </Field>
        <dl className="flex flex-col gap-3">
          <ContactRow
            label="WhatsApp number"
            value={profile.whatsapp ? formatPhoneForDisplay(profile.whatsapp) : ""}
            onChange={() => change("whatsapp")}
          />
          <ContactRow label="E-mail address" value={profile.email} onChange={() => change("email")} />
        </dl>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">How should we reach you about your subscription?</legend>
          <div className="grid grid-cols-2 gap-2">
            {COMMUNICATION_METHODS.map((m) => (
              <label
                key={m}
                className={cn(
                  "flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-4 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40",
                  method === m ? "border-accent bg-accent/10" : "border-line bg-surface-raised",
                )}
              >
                <input type="radio" value={m} className="size-4 accent-[var(--color-accent)]" {...register("communication_method")} />
                <span className="font-semibold text-ink">{CHANNEL_LABELS[m]}</span>
              </label>
            ))}
          </div>
          {errors.communication_method ? <p className="mt-2 text-sm text-bad">{errors.communication_method.message}</p> : null}
          <p className="mt-2 text-sm text-ink-subtle">Renewal reminders, receipts and replies to your requests go here.</p>
        </fieldset>
        <Button type="submit" disabled={isSubmitting || !isDirty} className="self-start">
          {isSubmitting ? "Saving..." : "Save details"}
        </Button>
      </form>
      {/* outside the <form>: the dialog's own forms must not submit this one */}
      <ContactChangeDialog kind={kind} open={changing} onOpenChange={setChanging} />
    </Card>
  );
}

/** A contact shown as it is, with its way to change it (a code to the new one). */
function ContactRow({ label, value, onChange }: { label: string; value: string; onChange: () => void }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 rounded-xl border border-line bg-surface-raised px-4 py-2">
      <dt className="col-start-1 text-sm font-medium text-ink">{label}</dt>
      <dd className="col-start-1 text-ink [overflow-wrap:anywhere]">{value || <span className="text-ink-subtle">Not set</span>}</dd>
      <dd className="col-start-2 row-span-2 row-start-1">
        <Button variant="outline" size="sm" onClick={onChange} aria-label={`Change ${label}`}>
          Change
        </Button>
      </dd>
    </div>
  );
}

function MarketingChoice({ profile }: { profile: ClientProfile }) {
  const update = useUpdateMe();
  const [checked, setChecked] = useState(profile.marketing_opt_in);
  useEffect(() => setChecked(profile.marketing_opt_in), [profile.marketing_opt_in]);
  const changed = checked !== profile.marketing_opt_in;

  const save = async () => {
    try {
      const saved = await update.mutateAsync({ marketing_opt_in: checked });
      toast.success(saved.marketing_opt_in ? "Subscribed" : "Unsubscribed", {
        description: saved.marketing_opt_in ? "We'll send you specials and news." : "You won't get specials and news from us any more.",
      });
    } catch (error) {
      toast.error("Save Failed", { description: errorMessage(error) });
    }
  };

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="marketing-heading">
      <h2 id="marketing-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Megaphone aria-hidden="true" className="size-5 text-accent-ink" />
        Specials and news
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Optional. This is only about marketing: messages about your own subscription (reminders, receipts) come either way. See our{" "}
        <Link to="/privacy-policy" className="text-accent-ink underline">
          privacy policy
        </Link>
        .
      </p>
      <label className="mt-4 flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-line bg-surface-raised p-4">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => setChecked(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-[var(--color-accent)]"
        />
        <span className="text-sm text-ink">{MARKETING_CONSENT_TEXT}</span>
      </label>
      <p className="mt-2 text-sm text-ink-subtle" role="status">
        {profile.marketing_opt_in
          ? `You agreed${profile.marketing_opt_in_at ? ` on ${formatDate(profile.marketing_opt_in_at)}` : ""}. Untick and save to stop.`
          : "You're not getting marketing messages."}
      </p>
      <Button variant="outline" onClick={save} disabled={!changed || update.isPending} className="mt-3">
        {update.isPending ? "Saving..." : "Save choice"}
      </Button>
    </Card>
  );
}

const passwordFormSchema = passwordChangeSchema
  .and(z.object({ confirm: z.string() }))
  .refine((v) => v.confirm === v.newPassword, { path: ["confirm"], message: "The two new passwords do not match" });
type PasswordValues = { currentPassword: string; newPassword: string; confirm: string };

function PasswordForm() {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordValues>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      reset();
      toast.success("Password Changed", { description: "Any other device that was signed in has been signed out." });
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["currentPassword", "newPassword"]))
        toast.error("Password Not Changed", { description: errorMessage(error) });
    }
  });

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="password-heading">
      <h2 id="password-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <KeyRound aria-hidden="true" className="size-5 text-accent-ink" />
        Change password
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-4">
        <Field id="current-password" label="Current password" error={errors.currentPassword?.message}>
          <Input type="password" autoComplete="current-password" {...register("currentPassword")} />
        </Field>
        <Field
          id="new-password"
          label="New password"
          hint={`At least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols.`}
          error={errors.newPassword?.message}
        >
          <Input type="password" autoComplete="new-password" {...register("newPassword")} />
        </Field>
        <Field id="confirm-password" label="Repeat the new password" error={errors.confirm?.message}>
          <Input type="password" autoComplete="new-password" {...register("confirm")} />
        </Field>
        <Button type="submit" disabled={isSubmitting} className="self-start">
          {isSubmitting ? "Saving..." : "Change password"}
        </Button>
      </form>
    </Card>
  );
}
