// 'Convert to client': the lead becomes a client with a portal account. The admin may pick the
// username, package, start day and trial/active (the server fills in what is left blank); the
// answer carries the portal password, shown here once with a copy button and a warning.
import { CircleCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { type AdminLead, leadConvertSchema } from "@/shared/business-schemas";
import { saDay } from "@/shared/dates";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { useAdminPackages } from "../api/get-admin-packages";
import { apiFieldErrors, Field, type FieldErrors, FormError, parseForm } from "../components/form-field";
import { packageChoice, saDayStartIso } from "../components/format";
import { OneTimePassword } from "../components/one-time-password";
import { type ConvertLeadResponse, useConvertLead } from "./api/convert-lead";

const isFreeTrialLead = (lead: AdminLead) => lead.form_type === "free-trial" || lead.package_price.trim().toUpperCase() === "FREE";

export interface ConvertLeadDialogProps {
  lead: AdminLead;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ConvertLeadDialog({ lead, open, onOpenChange }: ConvertLeadDialogProps) {
  const [result, setResult] = useState<ConvertLeadResponse | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    // The password is gone for good once the dialog closes.
    if (!next) setResult(null);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        // A click outside must not lose a password the admin has not copied yet.
        onInteractOutside={(event) => result && event.preventDefault()}
      >
        {result ? <Converted result={result} onDone={() => close(false)} /> : <ConvertForm lead={lead} onConverted={setResult} />}
      </DialogContent>
    </Dialog>
  );
}

function ConvertForm({ lead, onConverted }: { lead: AdminLead; onConverted: (result: ConvertLeadResponse) => void }) {
  const packages = useAdminPackages();
  const convert = useConvertLead();
  const today = saDay(new Date());
  const matching = packages.data?.find((p) => p.name.toLowerCase() === lead.package_name.trim().toLowerCase());
  const [username, setUsername] = useState("");
  const [packageId, setPackageId] = useState<string | null>(null);
  const [start, setStart] = useState(today);
  const [status, setStatus] = useState<"trial" | "active">(isFreeTrialLead(lead) ? "trial" : "active");
  const [errors, setErrors] = useState<FieldErrors>({});
  const chosenPackage = packageId ?? matching?.id ?? "";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseForm(leadConvertSchema, {
      username,
      package_id: chosenPackage,
      // today starts now (the server's default); another day starts at its midnight in SA
      start: start && start !== today ? saDayStartIso(start) : "",
      status,
    });
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      const answer = await convert.mutateAsync({ id: lead.id, input: parsed.data });
      toast.success("Client created", { description: `${answer.client.full_name} can now sign in to the client portal.` });
      onConverted(answer);
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error("Conversion failed", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Convert to client</DialogTitle>
        <DialogDescription>
          {lead.name} gets a client portal account{lead.package_name ? ` for ${lead.package_name}` : ""}. They're sent a welcome message
          with their login.
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError errors={errors} />
        <Field label="Portal username" error={errors.username} hint="Leave blank to make one from their name, e.g. thabo.m.">
          {(control) => (
            <Input
              {...control}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              placeholder="Made from their name"
            />
          )}
        </Field>
        <Field
          label="Package"
          error={errors.package_id}
          hint={lead.package_name ? `They asked for: ${lead.package_name}${lead.duration ? ` (${lead.duration})` : ""}` : undefined}
        >
          {(control) => (
            <Select {...control} value={chosenPackage} onChange={(e) => setPackageId(e.target.value)} disabled={packages.isPending}>
              <option value="">{packages.isPending ? "Loading packages..." : "No package (trial only)"}</option>
              {packages.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {packageChoice(p)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Start date" error={errors.start} hint="Today starts the subscription now.">
          {(control) => <Input {...control} type="date" value={start} onChange={(e) => setStart(e.target.value)} />}
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-ink">Start as</legend>
          <div className="grid grid-cols-2 gap-3">
            {(
              [
                ["trial", "Free trial", "24 hours"],
                ["active", "Active", "the package's months"],
              ] as const
            ).map(([value, label, detail]) => (
              <label
                key={value}
                className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-line bg-surface-raised px-4 py-2 has-[:checked]:border-accent has-[:checked]:bg-accent/10"
              >
                <input
                  type="radio"
                  name="convert-status"
                  value={value}
                  checked={status === value}
                  onChange={() => setStatus(value)}
                  className="size-4 accent-[var(--color-accent)]"
                />
                <span className="flex flex-col">
                  <span className="text-sm font-medium text-ink">{label}</span>
                  <span className="text-xs text-ink-subtle">{detail}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.status ? <p className="text-sm text-bad">{errors.status}</p> : null}
        </fieldset>
      </div>
      <DialogFooter>
        <Button type="submit" disabled={convert.isPending}>
          {convert.isPending ? "Creating client..." : "Create client"}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Converted({ result, onDone }: { result: ConvertLeadResponse; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <CircleCheck aria-hidden="true" className="size-6 text-ok" />
          {result.client.full_name} is now a client
        </DialogTitle>
        <DialogDescription>Give them these details to sign in to the client portal.</DialogDescription>
      </DialogHeader>
      <OneTimePassword username={result.client.username} password={result.password} />
      <DialogFooter>
        <Link to={`/admin/client/${result.client.id}`} className={buttonClasses({ variant: "outline" })} onClick={onDone}>
          Open client
        </Link>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
