// The owner's partners (issue 45): add one (made on the panel, their set-password link sent),
// the list with each one's credits from the panel, lines, customers and last purchase, credits
// given or taken back once per tap (the form's Idempotency-Key is kept until it succeeds, so a
// retry after a lost answer is the same transfer), and suspend / restore.
import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import { useRef, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { type CreditAmount, creditAmountSchema, type NewReseller, newResellerSchema, type ResellerRow } from "@/shared/reseller-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../components/admin-page-header";
import { Field, FormError, showServerErrors } from "../components/form-field";
import { formatDate, phone } from "../components/format";
import { StatusBadge } from "../components/status-badge";
import { useAddReseller } from "./api/add-reseller";
import { useResellers } from "./api/get-resellers";
import { useGiveCredits } from "./api/give-credits";
import { useSetResellerStatus } from "./api/set-reseller-status";
import { NetworkView } from "./network-view";
import { ResellerSettingsForm } from "./reseller-settings-form";

const newKey = () => globalThis.crypto.randomUUID();

type AddValues = { name: string; email: string; whatsapp: string; username: string };
const addResolver = zodResolver(newResellerSchema) as unknown as Resolver<AddValues, unknown, NewReseller>;

function AddResellerForm() {
  const add = useAddReseller();
  // one key per partner being added: a retry of the same form is the same request
  const key = useRef(newKey());
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddValues, unknown, NewReseller>({
    resolver: addResolver,
    defaultValues: { name: "", email: "", whatsapp: "", username: "" },
  });
  const onSubmit = handleSubmit(async (input) => {
    try {
      const made = await add.mutateAsync({ input, key: key.current });
      key.current = newKey();
      reset();
      toast.success("Partner added", { description: `${made.username} gets a link to choose their password.` });
    } catch (error) {
      // a taken username is a new request with another username
      if (error instanceof ApiError && error.status === 409) key.current = newKey();
      showServerErrors(error, setError, ["name", "email", "whatsapp", "username"], "Not added. Please try again.");
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a partner" className="flex flex-col gap-4 rounded-2xl border border-line p-4">
      <h2 className="text-lg font-semibold text-ink">Add a partner</h2>
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" required error={errors.name?.message}>
          {(c) => <Input {...c} {...register("name")} autoComplete="off" />}
        </Field>
        <Field label="E-mail" required error={errors.email?.message}>
          {(c) => <Input {...c} {...register("email")} type="email" autoComplete="off" />}
        </Field>
        <Field label="WhatsApp" error={errors.whatsapp?.message} hint="Optional: the link goes here too.">
          {(c) => <Input {...c} {...register("whatsapp")} inputMode="tel" autoComplete="off" />}
        </Field>
        <Field label="Username" error={errors.username?.message} hint="Optional: made from the name when empty.">
          {(c) => <Input {...c} {...register("username")} autoComplete="off" spellCheck={false} />}
        </Field>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={isSubmitting}>
          <UserPlus aria-hidden="true" />
          {isSubmitting ? "Adding..." : "Add partner"}
        </Button>
      </div>
    </form>
  );
}

const creditsResolver = zodResolver(creditAmountSchema) as unknown as Resolver<CreditAmount, unknown, CreditAmount>;

function CreditsForm({ reseller }: { reseller: ResellerRow }) {
  const give = useGiveCredits();
  // one key per transfer: sending it again after a lost answer is the same transfer
  const key = useRef(newKey());
  const [failure, setFailure] = useState("");
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CreditAmount, unknown, CreditAmount>({ resolver: creditsResolver, defaultValues: { credits: "", note: "" } });
  const send = (sign: 1 | -1) =>
    handleSubmit(async ({ credits, note }) => {
      const amount = Number(credits);
      setFailure("");
      try {
        const transfer = await give.mutateAsync({ id: reseller.id, credits: sign * amount, note, key: key.current });
        key.current = newKey();
        reset();
        toast.success(sign > 0 ? `Gave ${amount} credits to ${reseller.name}` : `Took back ${amount} credits from ${reseller.name}`, {
          description: transfer.partner_after === null ? undefined : `${reseller.name} now has ${transfer.partner_after}.`,
        });
      } catch (error) {
        // a refusal is final for this key; a lost answer keeps it, so trying again is the same transfer
        if (error instanceof ApiError && error.status === 409) key.current = newKey();
        setFailure(error instanceof Error ? error.message : "Not moved. Please try again.");
      }
    });
  const id = `credits-${reseller.id}`;
  return (
    <form aria-label={`Credits for ${reseller.name}`} className="flex flex-wrap items-end gap-2" noValidate onSubmit={send(1)}>
      <label className="flex flex-col gap-1 text-xs text-ink-muted" htmlFor={id}>
        Credits
        <Input id={id} inputMode="numeric" className="w-24" aria-invalid={errors.credits ? true : undefined} {...register("credits")} />
      </label>
      <label className="flex flex-col gap-1 text-xs text-ink-muted" htmlFor={`${id}-note`}>
        Note
        <Input id={`${id}-note`} className="w-40" {...register("note")} />
      </label>
      <Button type="submit" size="sm" disabled={isSubmitting}>
        Give
      </Button>
      <Button type="button" size="sm" variant="outline" disabled={isSubmitting} onClick={send(-1)}>
        Take back
      </Button>
      {failure || errors.credits || errors.note ? (
        <p role="alert" className="w-full text-sm text-bad">
          {failure || errors.credits?.message || errors.note?.message}
        </p>
      ) : null}
    </form>
  );
}

function ResellerCard({ reseller }: { reseller: ResellerRow }) {
  const status = useSetResellerStatus();
  const suspended = reseller.status === "suspended";
  return (
    <article aria-label={reseller.name} className="flex flex-col gap-3 rounded-2xl border border-line p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">{reseller.name}</h3>
          <p className="text-sm text-ink-muted">
            {reseller.username} · {reseller.email}
            {reseller.whatsapp ? ` · ${phone(reseller.whatsapp)}` : ""}
          </p>
        </div>
        <StatusBadge status={reseller.status} />
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-ink-subtle">Credits</dt>
          <dd className="font-semibold text-ink" data-testid="reseller-credits">
            {reseller.credits ?? "—"}
          </dd>
        </div>
        <div>
          <dt className="text-ink-subtle">Lines</dt>
          <dd>{reseller.lines}</dd>
        </div>
        <div>
          <dt className="text-ink-subtle">Customers</dt>
          <dd>{reseller.customers}</dd>
        </div>
        <div>
          <dt className="text-ink-subtle">Last purchase</dt>
          <dd>{reseller.last_purchase_at ? formatDate(reseller.last_purchase_at) : "None yet"}</dd>
        </div>
      </dl>
      {reseller.panel_user_id ? (
        <CreditsForm reseller={reseller} />
      ) : (
        <p className="text-sm text-warn">Not on the panel yet: add them again with the same details to finish.</p>
      )}
      {!reseller.password_set ? <p className="text-xs text-ink-subtle">Has not chosen a password yet.</p> : null}
      <div>
        <Button
          size="sm"
          variant="outline"
          disabled={status.isPending}
          onClick={() =>
            status.mutate(
              { id: reseller.id, to: suspended ? "restore" : "suspend" },
              { onError: (error) => toast.error("Not changed", { description: error.message }) },
            )
          }
        >
          {suspended ? "Restore sign-in" : "Suspend sign-in"}
        </Button>
      </div>
    </article>
  );
}

export function ResellersSection() {
  const { data, isPending, isError } = useResellers();
  return (
    <div>
      <AdminPageHeader
        title="Partners"
        description="Sub-resellers who sell to their own circles with credits they buy from you. Suspending one stops their sign-in; their lines keep running."
      />
      <div className="flex flex-col gap-6">
        <AddResellerForm />
        <ResellerSettingsForm />
        {data?.panel_error ? (
          <p role="alert" className="text-sm text-bad">
            {data.panel_error}
          </p>
        ) : null}
        {data && data.owner_credits !== null ? (
          <p className="text-sm text-ink-muted" data-testid="owner-credits">
            Your credits on the panel: <span className="font-semibold text-ink">{data.owner_credits}</span>
          </p>
        ) : null}
        {isPending ? <p className="text-sm text-ink-muted">Loading partners…</p> : null}
        {isError ? <p className="text-sm text-bad">Sync Error</p> : null}
        {data && data.data.length === 0 ? <p className="text-sm text-ink-muted">No partners yet.</p> : null}
        <div className="grid gap-4 lg:grid-cols-2">
          {data?.data.map((reseller) => (
            <ResellerCard key={reseller.id} reseller={reseller} />
          ))}
        </div>
        <NetworkView />
      </div>
    </div>
  );
}
