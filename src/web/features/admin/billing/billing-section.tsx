// /admin/billing: the documents a bookkeeper files. A month's invoices and credit notes (each a
// PDF), that month as CSV, the coupons customers can enter before paying, and the numbering
// of both series. VAT vendor status, rate and VAT number are settings (Settings › Prices and VAT).
import { zodResolver } from "@hookform/resolvers/zod";
import { Download, FileText, Pencil, Plus, TicketPercent, Trash2 } from "lucide-react";
import { useState } from "react";
import type { Resolver } from "react-hook-form";
import { Link } from "react-router";
import { type CouponInput, couponInputSchema, type NumberingInput, numberingSchema } from "@/shared/billing";
import { formatDate, saDay } from "@/shared/dates";
import { formatRand, fromCents } from "@/shared/money";
import { Badge } from "@/web/components/ui/badge";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { toast } from "@/web/lib/toast";
import { useAdminPackages } from "../api/get-admin-packages";
import { AdminPageHeader } from "../components/admin-page-header";
import { ConfirmDialog } from "../components/confirm-dialog";
import { Field, FormError } from "../components/form-field";
import { BusyLockedDialog } from "../components/form-only-dialog";
import { useServerForm } from "../components/use-server-form";
import { type AdminCoupon, useCoupons, useDeleteCoupon, useDocuments, useNumbering, useSaveCoupon, useSaveNumbering } from "./api/billing";

/** This month in South Africa, as YYYY-MM. */
const thisMonth = () => saDay(new Date()).slice(0, 7);

export function BillingSection() {
  return (
    <>
      <AdminPageHeader
        title="Billing"
        description={
          <>
            An invoice is issued for every captured payment and a credit note for every refund, each numbered without gaps. Whether you are
            a VAT vendor, your VAT number and the rate are in{" "}
            <Link to="/admin/settings" className="text-accent-ink underline underline-offset-4">
              Settings
            </Link>
            .
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <DocumentsCard />
        <CouponsCard />
        <NumberingCard />
      </div>
    </>
  );
}

function DocumentsCard() {
  const [month, setMonth] = useState(thisMonth);
  const documents = useDocuments(month);
  const rows = documents.data ?? [];
  const total = rows.reduce((sum, r) => sum + (r.type === "credit_note" ? -r.incl_cents : r.incl_cents), 0);
  const vat = rows.reduce((sum, r) => sum + (r.type === "credit_note" ? -r.vat_cents : r.vat_cents), 0);
  return (
    <Card className="p-5 sm:p-6">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-ink">Invoices and credit notes</h2>
          <p className="text-sm text-ink-muted">
            {rows.length} document{rows.length === 1 ? "" : "s"} · {formatRand(fromCents(total))} including {formatRand(fromCents(vat))} VAT
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Month">
            {(control) => (
              <Input
                {...control}
                type="month"
                value={month}
                onChange={(e) => e.target.value && setMonth(e.target.value)}
                className="w-44"
              />
            )}
          </Field>
          <a href={`/api/admin/billing/export.csv?month=${month}`} className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" />
            CSV for the bookkeeper
          </a>
        </div>
      </div>
      {documents.isPending ? (
        <p className="text-sm text-ink-muted">Loading...</p>
      ) : documents.isError ? (
        <p role="alert" className="text-sm text-bad">
          {documents.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">
          No invoices or credit notes in this month.
        </p>
      ) : (
        <ul className="divide-y divide-line">
          {rows.map((doc) => (
            <li key={doc.number} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <a
                  href={`/api/admin/${doc.type === "invoice" ? "invoices" : "credit-notes"}/${encodeURIComponent(doc.number)}.pdf`}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-2 font-mono font-medium text-accent-ink underline-offset-4 hover:underline"
                >
                  <FileText aria-hidden="true" className="size-4" />
                  {doc.number}
                </a>
                <span className="ml-2 text-sm text-ink-muted">
                  {doc.title} · {formatDate(doc.issued_at)} · {doc.customer}
                </span>
                {doc.reason ? (
                  <p className="text-xs text-ink-subtle">
                    Against {doc.invoice_number}: {doc.reason}
                  </p>
                ) : null}
              </div>
              <span className={`tabular font-medium ${doc.type === "credit_note" ? "text-bad" : "text-ink"}`}>
                {formatRand(fromCents(doc.type === "credit_note" ? -doc.incl_cents : doc.incl_cents))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function couponTerms(c: AdminCoupon): string {
  const off = c.kind === "percent" ? `${c.percent_off}% off` : `${formatRand(c.amount_off ?? 0)} off`;
  const limits = [
    c.max_uses ? `${c.uses} of ${c.max_uses} used` : `${c.uses} used`,
    c.expires_at ? `until ${formatDate(c.expires_at)}` : "no expiry",
  ];
  return `${off} · ${limits.join(" · ")}`;
}

function CouponsCard() {
  const coupons = useCoupons();
  const packages = useAdminPackages();
  const remove = useDeleteCoupon();
  const [editing, setEditing] = useState<AdminCoupon | "new" | null>(null);
  const [deleting, setDeleting] = useState<AdminCoupon | null>(null);
  const packageName = (id: string | null) => (id ? (packages.data?.find((p) => p.id === id)?.name ?? "one package") : "every package");
  return (
    <Card className="p-5 sm:p-6">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-ink">Coupons</h2>
          <p className="text-sm text-ink-muted">Customers enter a code before they pay. Each customer can use a coupon once.</p>
        </div>
        <Button onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" />
          New coupon
        </Button>
      </div>
      {coupons.isPending ? (
        <p className="text-sm text-ink-muted">Loading...</p>
      ) : (coupons.data ?? []).length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">No coupons yet.</p>
      ) : (
        <ul className="divide-y divide-line">
          {(coupons.data ?? []).map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <span className="inline-flex items-center gap-2 font-mono font-semibold text-ink">
                  <TicketPercent aria-hidden="true" className="size-4 text-special" />
                  {c.code}
                </span>
                {!c.is_active ? (
                  <Badge variant="neutral" className="ml-2">
                    off
                  </Badge>
                ) : null}
                <p className="text-sm text-ink-muted">
                  {couponTerms(c)} · {packageName(c.package_id)}
                </p>
              </div>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => setEditing(c)} aria-label={`Edit ${c.code}`}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setDeleting(c)}
                  aria-label={`${c.uses > 0 ? "Switch off" : "Delete"} ${c.code}`}
                >
                  <Trash2 aria-hidden="true" />
                  {c.uses > 0 ? "Switch off" : "Delete"}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? <CouponDialog coupon={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title={deleting && deleting.uses > 0 ? `Switch off ${deleting.code}?` : `Delete ${deleting?.code ?? ""}?`}
        description={
          deleting && deleting.uses > 0
            ? "It has been used, so it stays on record (its invoices name it) but customers can no longer enter it."
            : "Customers can no longer enter it."
        }
        confirmLabel={deleting && deleting.uses > 0 ? "Switch off" : "Delete"}
        pendingLabel="Saving..."
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success(`${deleting.code} ${deleting.uses > 0 ? "switched off" : "deleted"}`);
              setDeleting(null);
            },
            onError: (error) => toast.error("Not saved", { description: error.message }),
          })
        }
      />
    </Card>
  );
}

interface CouponValues {
  code: string;
  kind: "percent" | "fixed";
  percent_off: string;
  amount_off: string;
  package_id: string;
  /** a date (YYYY-MM-DD): the coupon works to the end of that day, South African time */
  expires_on: string;
  max_uses: string;
  is_active: boolean;
}
const COUPON_FIELDS = ["code", "kind", "percent_off", "amount_off", "package_id", "max_uses"] as const;
const checkCoupon = zodResolver(couponInputSchema) as unknown as Resolver<
  Omit<CouponValues, "expires_on"> & { expires_at: string },
  unknown,
  CouponInput
>;
const couponResolver: Resolver<CouponValues, unknown, CouponInput> = async (values, context, options) => {
  const { expires_on, ...rest } = values;
  const result = await checkCoupon({ ...rest, expires_at: expires_on ? `${expires_on}T23:59:59+02:00` : "" }, context, options as never);
  const { expires_at, ...errors } = result.errors as Record<string, unknown>;
  return { values: result.values, errors: expires_at ? { ...errors, expires_on: expires_at } : errors } as never;
};

function CouponDialog({ coupon, onClose }: { coupon: AdminCoupon | null; onClose: () => void }) {
  const save = useSaveCoupon();
  const packages = useAdminPackages();
  const { register, watch, errors, onSubmit } = useServerForm({
    resolver: couponResolver,
    defaultValues: {
      code: coupon?.code ?? "",
      kind: coupon?.kind ?? "percent",
      percent_off: coupon?.percent_off ? String(coupon.percent_off) : "",
      amount_off: coupon?.amount_off ? String(coupon.amount_off) : "",
      package_id: coupon?.package_id ?? "",
      expires_on: coupon?.expires_at ? saDay(coupon.expires_at) : "",
      max_uses: coupon?.max_uses ? String(coupon.max_uses) : "",
      is_active: coupon?.is_active ?? true,
    },
    send: async (input) => {
      const saved = await save.mutateAsync({ id: coupon?.id, input });
      toast.success(`${saved.code} saved`);
      onClose();
    },
    failure: { fields: COUPON_FIELDS, fallback: "Not saved. Please try again." },
  });
  const kind = watch("kind");
  return (
    <BusyLockedDialog busy={save.isPending} onClose={onClose} className="max-w-lg">
      <form onSubmit={onSubmit} noValidate>
        <DialogHeader>
          <DialogTitle>{coupon ? `Edit ${coupon.code}` : "New coupon"}</DialogTitle>
          <DialogDescription>The price is worked out on our server; the invoice shows the coupon and what it took off.</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <Field label="Code" error={errors.code?.message} required hint="Letters, digits and dashes, e.g. WELCOME10">
            {(control) => <Input {...control} {...register("code")} className="font-mono uppercase" autoComplete="off" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Kind" error={errors.kind?.message}>
              {(control) => (
                <Select {...control} {...register("kind")}>
                  <option value="percent">Percentage off</option>
                  <option value="fixed">Rand off</option>
                </Select>
              )}
            </Field>
            {kind === "percent" ? (
              <Field label="Percentage off" error={errors.percent_off?.message} required>
                {(control) => <Input {...control} {...register("percent_off")} inputMode="numeric" className="tabular" />}
              </Field>
            ) : (
              <Field label="Rand off" error={errors.amount_off?.message} required>
                {(control) => <Input {...control} {...register("amount_off")} inputMode="decimal" className="tabular" />}
              </Field>
            )}
          </div>
          <Field label="Package" error={errors.package_id?.message}>
            {(control) => (
              <Select {...control} {...register("package_id")}>
                <option value="">Every package</option>
                {packages.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Last day it works" error={errors.expires_on?.message} hint="Empty: no expiry">
              {(control) => <Input {...control} {...register("expires_on")} type="date" />}
            </Field>
            <Field label="Most uses in all" error={errors.max_uses?.message} hint="Empty: no limit">
              {(control) => <Input {...control} {...register("max_uses")} inputMode="numeric" className="tabular" />}
            </Field>
          </div>
          <label className="flex items-center gap-3 text-sm text-ink">
            <input type="checkbox" {...register("is_active")} className="size-4 accent-accent" />
            Customers can use it now
          </label>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save coupon"}
          </Button>
        </DialogFooter>
      </form>
    </BusyLockedDialog>
  );
}

interface NumberingValues {
  invoice_next: string;
  credit_note_next: string;
}

function NumberingCard() {
  const numbering = useNumbering();
  if (numbering.isPending) return <Card className="p-5 text-sm text-ink-muted sm:p-6">Loading numbering...</Card>;
  if (numbering.isError) return null;
  return <NumberingForm key={`${numbering.data.invoice_next}:${numbering.data.credit_note_next}`} current={numbering.data} />;
}

function NumberingForm({ current }: { current: NonNullable<ReturnType<typeof useNumbering>["data"]> }) {
  const save = useSaveNumbering();
  const {
    register,
    errors,
    formState: { isDirty },
    onSubmit,
  } = useServerForm({
    resolver: zodResolver(numberingSchema) as unknown as Resolver<NumberingValues, unknown, NumberingInput>,
    defaultValues: { invoice_next: String(current.invoice_next), credit_note_next: String(current.credit_note_next) },
    send: async (input) => {
      const saved = await save.mutateAsync(input);
      toast.success("Numbering saved", { description: `The next invoice is ${saved.invoice_example}.` });
    },
    failure: { fields: ["invoice_next", "credit_note_next"], fallback: "Not saved. Please try again." },
  });
  return (
    <Card className="p-5 sm:p-6">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <div>
          <h2 className="text-lg font-semibold text-ink">Numbering</h2>
          <p className="text-sm text-ink-muted">
            Next invoice <span className="font-mono text-ink">{current.invoice_example}</span>, next credit note{" "}
            <span className="font-mono text-ink">{current.credit_note_example}</span>. Move a series forward to carry on from an earlier
            system; a number already issued is never used again. The prefixes are settings.
          </p>
        </div>
        <FormError message={errors.root?.server?.message} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Next invoice number" error={errors.invoice_next?.message}>
            {(control) => <Input {...control} {...register("invoice_next")} inputMode="numeric" className="tabular" />}
          </Field>
          <Field label="Next credit note number" error={errors.credit_note_next?.message}>
            {(control) => <Input {...control} {...register("credit_note_next")} inputMode="numeric" className="tabular" />}
          </Field>
        </div>
        <div>
          <Button type="submit" disabled={save.isPending || !isDirty}>
            {save.isPending ? "Saving..." : "Save numbering"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
