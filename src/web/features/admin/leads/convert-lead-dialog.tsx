// 'Convert to client': the lead becomes a client with a portal account. The admin may pick the
// username, the package (priced as the client would pay today) and how they start: waiting for
// their first payment, or on a free trial now. No time is given here: it comes from payments.
// No password is shown: the answer says where their welcome with a link to choose one was queued
// (masked). A lead from a returning client renews that client instead: no second account, and a
// renewal link is queued to them.
import { zodResolver } from "@hookform/resolvers/zod";
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import type { Resolver } from "react-hook-form";
import { Link } from "react-router";
import { type AdminLead, type LeadConversion, type LeadConvert, leadConvertSchema } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { useAdminPackages } from "../api/get-admin-packages";
import { useLifecycleRules } from "../api/get-lifecycle-rules";
import type { AdminPackage } from "../catalogue/api/types";
import { ClientMade } from "../clients/client-made";
import { QueuedToNote } from "../clients/queued-to";
import { ChoiceCard, PackageOptions } from "../components/choices";
import { Field, FormError } from "../components/form-field";
import { priceTodayText } from "../components/format";
import { useServerForm } from "../components/use-server-form";
import { useConvertLead } from "./api/convert-lead";
import { returningClient } from "./lead-labels";

const isFreeTrialLead = (lead: AdminLead) => lead.form_type === "free-trial" || lead.package_price.trim().toUpperCase() === "FREE";

interface ConvertValues {
  username: string;
  package_id: string;
  start: "pending" | "trial";
}

export interface ConvertLeadDialogProps {
  lead: AdminLead;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ConvertLeadDialog({ lead, open, onOpenChange }: ConvertLeadDialogProps) {
  const [result, setResult] = useState<LeadConversion | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setResult(null);
  };
  const returning = returningClient(lead);
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {result ? (
          <Converted result={result} onDone={() => close(false)} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{returning ? "Renew returning client" : "Convert to client"}</DialogTitle>
              <DialogDescription>
                {returning
                  ? `${lead.name} asked${lead.package_name ? ` for ${lead.package_name}` : " again"}.`
                  : `${lead.name} gets a client portal account${lead.package_name ? ` for ${lead.package_name}` : ""}. They're sent a welcome message with a link to choose their password.`}
              </DialogDescription>
            </DialogHeader>
            <ConvertForm lead={lead} onConverted={setResult} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Waits for the packages, so the one the lead asked for is the form's starting choice. */
function ConvertForm({ lead, onConverted }: { lead: AdminLead; onConverted: (result: LeadConversion) => void }) {
  const packages = useAdminPackages();
  if (packages.isPending) {
    return (
      <div className="flex flex-col gap-4" aria-busy="true">
        <span className="sr-only">Loading packages...</span>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    );
  }
  return <ConvertFields lead={lead} packages={packages.data ?? []} onConverted={onConverted} />;
}

function ConvertFields({
  lead,
  packages,
  onConverted,
}: {
  lead: AdminLead;
  packages: AdminPackage[];
  onConverted: (result: LeadConversion) => void;
}) {
  const convert = useConvertLead();
  const { trialHours } = useLifecycleRules();
  const returning = returningClient(lead);
  const matching = packages.find((p) => p.name.toLowerCase() === lead.package_name.trim().toLowerCase());
  const { register, watch, errors, isSubmitting, onSubmit } = useServerForm({
    resolver: zodResolver(leadConvertSchema) as Resolver<ConvertValues, unknown, LeadConvert>,
    defaultValues: { username: "", package_id: matching?.id ?? "", start: isFreeTrialLead(lead) ? "trial" : "pending" },
    send: async (input) => {
      // A returning client keeps their account: only the package travels.
      const answer = await convert.mutateAsync({ id: lead.id, input: returning ? { package_id: input.package_id } : input });
      toast.success(answer.renewed ? "Client renewed" : "Client created", {
        description: answer.renewed
          ? `${answer.client.full_name} was queued a renewal link.`
          : `${answer.client.full_name} was queued a link to choose their password.`,
      });
      onConverted(answer);
    },
    failure: { fields: ["username", "package_id", "start"], toast: "Conversion failed" },
  });

  const chosen = packages.find((p) => p.id === watch("package_id"));
  const asked = lead.package_name
    ? `They asked for ${lead.package_name}${lead.duration && lead.duration !== lead.package_name ? ` (${lead.duration})` : ""}.`
    : "";
  const hint = [asked, chosen ? `They'd pay ${priceTodayText(chosen)}.` : ""].filter(Boolean).join(" ") || undefined;

  return (
    <form onSubmit={onSubmit} noValidate>
      <div className="flex flex-col gap-4">
        {returning ? (
          <div role="note" className="flex gap-3 rounded-xl border border-accent/40 bg-accent/10 p-4 text-sm text-ink">
            <RefreshCw aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-ink" />
            <div className="flex flex-col gap-1">
              <p>This person is already a client: converting renews their account (no second account) and queues them a renewal link.</p>
              <Link to={`/admin/client/${returning.id}`} className="w-fit font-semibold text-accent-ink hover:underline">
                {returning.full_name} ({returning.username})
              </Link>
            </div>
          </div>
        ) : null}
        <FormError message={errors.root?.server?.message} />
        {returning ? null : (
          <Field label="Portal username" error={errors.username?.message} hint="Leave blank to make one from their name, e.g. thabo.m.">
            {(control) => (
              <Input
                {...control}
                {...register("username")}
                autoCapitalize="none"
                autoComplete="off"
                spellCheck={false}
                placeholder="Made from their name"
              />
            )}
          </Field>
        )}
        <Field label="Package" error={errors.package_id?.message} hint={hint}>
          {(control) => (
            <Select {...control} {...register("package_id")}>
              <option value="">{returning ? "Their own package" : "No package yet"}</option>
              <PackageOptions packages={packages} />
            </Select>
          )}
        </Field>
        {returning ? null : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-ink">Starts</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {(
                [
                  ["pending", "Waiting for first payment", "Their time starts when they pay."],
                  ["trial", "Free trial now", `${trialHours} hours from now.`],
                ] as const
              ).map(([value, label, detail]) => (
                <ChoiceCard key={value} value={value} label={label} detail={detail} registration={register("start")} />
              ))}
            </div>
            {errors.start ? <p className="text-sm text-bad">{errors.start.message}</p> : null}
          </fieldset>
        )}
      </div>
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? (returning ? "Renewing..." : "Creating client...") : returning ? "Renew client" : "Create client"}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Converted({ result, onDone }: { result: LeadConversion; onDone: () => void }) {
  return (
    <ClientMade
      clientId={result.client.id}
      title={result.renewed ? `${result.client.full_name} was renewed` : `${result.client.full_name} is now a client`}
      description={
        result.renewed
          ? "No new account: they sign in as before, and pay with the renewal link."
          : "They choose their own portal password with the link in their welcome message."
      }
      onDone={onDone}
    >
      {result.renewed ? (
        <>
          <p className="rounded-xl border border-line bg-surface-raised p-3 text-sm text-ink-muted">
            Portal username: <span className="font-mono text-ink">{result.client.username}</span>
            {result.client.package_name ? (
              <>
                {" "}
                · Package: <span className="text-ink">{result.client.package_name}</span>
              </>
            ) : null}
          </p>
          <QueuedToNote what="A renewal link" targets={result.queued_to} />
        </>
      ) : (
        <QueuedToNote what="A link to choose a password" targets={result.queued_to} username={result.client.username} />
      )}
    </ClientMade>
  );
}
