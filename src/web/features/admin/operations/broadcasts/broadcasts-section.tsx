// /admin/broadcasts: one message to many clients. The owner picks who (a status, a package,
// subscriptions ending soon) and whether it is a service message (everyone picked) or marketing
// (only clients who agreed to offers: POPIA s69), sees how many it reaches and on which channel,
// then sends; the outbox sends 30 a minute. One form, react-hook-form over the shared schema.
import { zodResolver } from "@hookform/resolvers/zod";
import { Megaphone, Users } from "lucide-react";
import { useRef, useState } from "react";
import { type Resolver, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { type BroadcastAudience, type BroadcastInput, type BroadcastPreview, broadcastSchema } from "@/shared/broadcast-schemas";
import { CLIENT_STATUS_LABELS, CLIENT_STATUSES } from "@/shared/lifecycle";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { useAdminPackages } from "../../api/get-admin-packages";
import { AdminPageHeader } from "../../components/admin-page-header";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { Field, FormError, toastServerErrors } from "../../components/form-field";
import { usePreviewBroadcast, useSendBroadcast } from "./api/broadcasts";

interface Values {
  kind: "service" | "marketing";
  status: string;
  packageId: string;
  expiringWithinDays: string;
  subject: string;
  body: string;
}
const FIELDS = ["kind", "status", "packageId", "expiringWithinDays", "subject", "body"] as const;
const EMPTY: Values = { kind: "service", status: "", packageId: "", expiringWithinDays: "", subject: "", body: "" };

const audienceOf = (v: Values) => JSON.stringify([v.kind, v.status, v.packageId, v.expiringWithinDays.trim()]);

export function BroadcastsSection() {
  const packages = useAdminPackages();
  const preview = usePreviewBroadcast();
  const send = useSendBroadcast();
  const [reach, setReach] = useState<{ audience: string; data: BroadcastPreview } | null>(null);
  const [confirming, setConfirming] = useState<BroadcastInput | null>(null);
  const key = useRef<{ content: string; value: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, BroadcastInput>({
    resolver: zodResolver(broadcastSchema) as Resolver<Values, unknown, BroadcastInput>,
    defaultValues: EMPTY,
  });
  const values = useWatch({ control }) as Values;
  const current = reach && reach.audience === audienceOf(values) ? reach.data : null;

  const check = async () => {
    const audience: BroadcastAudience = {
      kind: values.kind,
      status: values.status as BroadcastAudience["status"],
      packageId: values.packageId || undefined,
      expiringWithinDays: values.expiringWithinDays.trim() === "" ? undefined : Number(values.expiringWithinDays),
    };
    try {
      setReach({ audience: audienceOf(values), data: await preview.mutateAsync(audience) });
    } catch (error) {
      toastServerErrors(error, setError, FIELDS, "Couldn't count the recipients", "");
    }
  };

  const onSubmit = handleSubmit((input) => setConfirming(input));

  const confirmSend = async () => {
    if (!confirming) return;
    // One key per message: a retry after a dropped connection queues nothing twice.
    const content = JSON.stringify(confirming);
    if (key.current?.content !== content) key.current = { content, value: crypto.randomUUID() };
    try {
      const sent = await send.mutateAsync({ input: confirming, key: key.current.value });
      toast.success("Broadcast queued", {
        description: `${sent.queued} ${sent.queued === 1 ? "message goes" : "messages go"} out over ${sent.minutes || 1} ${sent.minutes > 1 ? "minutes" : "minute"}.`,
      });
      setConfirming(null);
      setReach(null);
      key.current = null;
      reset(EMPTY);
    } catch (error) {
      setConfirming(null);
      toastServerErrors(error, setError, FIELDS, "Not sent");
    }
  };

  return (
    <>
      <AdminPageHeader
        title="Broadcasts"
        description="One message to many clients, each on their own channel. Check who it reaches before you send."
      />
      <Card className="p-5 sm:p-6">
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <FormError message={errors.root?.server?.message} />
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-ink">What kind of message?</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <label className="flex cursor-pointer gap-3 rounded-xl border border-line bg-surface-raised p-4 has-[:checked]:border-accent">
                <input type="radio" value="service" {...register("kind")} className="mt-1 size-4 accent-accent" />
                <span>
                  <span className="block font-medium text-ink">Service message</span>
                  <span className="text-sm text-ink-muted">
                    About their service (an outage, maintenance, a change). Goes to everyone picked.
                  </span>
                </span>
              </label>
              <label className="flex cursor-pointer gap-3 rounded-xl border border-line bg-surface-raised p-4 has-[:checked]:border-accent">
                <input type="radio" value="marketing" {...register("kind")} className="mt-1 size-4 accent-accent" />
                <span>
                  <span className="block font-medium text-ink">Marketing</span>
                  <span className="text-sm text-ink-muted">
                    An offer. Goes only to clients who agreed to hear about offers, with how to stop.
                  </span>
                </span>
              </label>
            </div>
          </fieldset>

          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Status" error={errors.status?.message}>
              {(c) => (
                <Select {...c} {...register("status")}>
                  <option value="">Any status</option>
                  {CLIENT_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {CLIENT_STATUS_LABELS[s]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Package" error={errors.packageId?.message}>
              {(c) => (
                <Select {...c} {...register("packageId")}>
                  <option value="">Any package</option>
                  {(packages.data ?? []).map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Ending within (days)" hint="Empty: any end date" error={errors.expiringWithinDays?.message}>
              {(c) => <Input {...c} {...register("expiringWithinDays")} inputMode="numeric" placeholder="e.g. 7" className="tabular" />}
            </Field>
          </div>

          <div
            className="flex flex-col gap-3 rounded-xl border border-line bg-surface-raised p-4 sm:flex-row sm:items-center sm:justify-between"
            aria-live="polite"
          >
            <p className="flex items-start gap-2 text-sm text-ink-muted">
              <Users aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {current ? (
                <span data-testid="broadcast-reach">
                  Reaches <span className="font-semibold text-ink">{current.count}</span> {current.count === 1 ? "client" : "clients"}:{" "}
                  {current.email} by e-mail, {current.whatsapp} on WhatsApp.
                  {current.notOptedIn ? ` ${current.notOptedIn} left out: not opted in to offers.` : ""}
                  {current.unreachable ? ` ${current.unreachable} with no e-mail or WhatsApp number.` : ""}
                  {current.sample.length ? ` For example: ${current.sample.join(", ")}.` : ""}
                </span>
              ) : (
                <span>Check who it reaches before you send.</span>
              )}
            </p>
            <Button type="button" variant="outline" size="sm" onClick={check} disabled={preview.isPending}>
              {preview.isPending ? "Counting..." : "Check who it reaches"}
            </Button>
          </div>

          <Field label="Subject" required hint="The e-mail's subject line" error={errors.subject?.message}>
            {(c) => <Input {...c} {...register("subject")} maxLength={120} />}
          </Field>
          <Field
            label="Message"
            required
            hint="Each client's message starts with 'Hi' and their first name and ends with your name and contacts."
            error={errors.body?.message}
          >
            {(c) => <Textarea {...c} {...register("body")} rows={5} maxLength={2000} />}
          </Field>

          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-ink-muted">
              Messages go out 30 a minute. Follow them in the{" "}
              <Link to="/admin/outbox" className="text-accent-ink underline">
                outbox
              </Link>
              .
            </p>
            <Button type="submit" disabled={!current || current.count === 0}>
              <Megaphone aria-hidden="true" />
              {current ? `Send to ${current.count} ${current.count === 1 ? "client" : "clients"}` : "Send"}
            </Button>
          </div>
        </form>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={`Send to ${current?.count ?? 0} ${current?.count === 1 ? "client" : "clients"}?`}
        description={
          confirming?.kind === "marketing"
            ? "Marketing goes only to clients who agreed to offers, with how to stop. It can't be called back once sent."
            : "A service message goes to every client picked. It can't be called back once sent."
        }
        confirmLabel="Send now"
        pendingLabel="Sending..."
        pending={send.isPending}
        onConfirm={confirmSend}
      />
    </>
  );
}
