// /partner: a sub-reseller's portal (issue 45). Signed out, their sign-in; signed in, their
// balance (with a warning when it runs low), credits to buy from the shop, a form to sell a line from their credits, their own
// lines with each login (to renew or switch off: partner-lines-list.tsx), and their credit ledger. Everything here reads only their own rows.
import { zodResolver } from "@hookform/resolvers/zod";
import { LogIn, LogOut, TriangleAlert } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { formatDateTime } from "@/shared/dates";
import { PARTNER_LOW_CREDITS, type PartnerMe, partnerLineSchema, partnerLoginSchema } from "@/shared/reseller-schemas";
import { FormField } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { ApiError } from "@/web/lib/api";
import { usePartnerLedger } from "./api/get-partner-ledger";
import { usePartnerMe } from "./api/get-partner-me";
import { type NewPartnerLine, usePartnerPackages, useSellLine } from "./api/partner-lines";
import { usePartnerLogin, usePartnerLogout } from "./api/partner-login";
import { BuyCredits } from "./buy-credits";
import { PartnerLines } from "./partner-lines-list";

const card = "flex flex-col gap-4 rounded-card border border-line bg-surface p-5 sm:p-6";

export function PartnerPortalPage() {
  const me = usePartnerMe();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10">
      {me.isPending ? <p className="text-ink-muted">Loading…</p> : null}
      {me.isError ? <p role="alert">The portal could not be loaded. Please try again.</p> : null}
      {me.data === null ? <PartnerLogin /> : null}
      {me.data ? <PartnerHome me={me.data} /> : null}
    </div>
  );
}

function PartnerLogin() {
  const login = usePartnerLogin();
  const [failure, setFailure] = useState("");
  const {
    register,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm({ resolver: zodResolver(partnerLoginSchema), defaultValues: { username: "", password: "" } });
  const onSubmit = handleSubmit(async (values) => {
    setFailure("");
    try {
      await login.mutateAsync(values);
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : "Sign-in failed. Please try again.");
    }
  });
  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="mb-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">Partner sign-in</h1>
      <p className="mb-6 text-ink-muted">For resellers who sell our service with credits bought from us.</p>
      <form onSubmit={onSubmit} noValidate className={card} aria-label="Partner sign-in">
        {failure ? (
          <p role="alert" className="text-sm text-bad">
            {failure}
          </p>
        ) : null}
        <FormField id="partner-username" label="Username">
          <Input id="partner-username" autoComplete="username" autoCapitalize="none" spellCheck={false} {...register("username")} />
        </FormField>
        <FormField id="partner-password" label="Password">
          <Input id="partner-password" type="password" autoComplete="current-password" {...register("password")} />
        </FormField>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          <LogIn aria-hidden="true" />
          {isSubmitting ? "Signing in..." : "Sign in"}
        </Button>
      </form>
    </div>
  );
}

function PartnerHome({ me }: { me: PartnerMe }) {
  const logout = usePartnerLogout();
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Hi {me.name.split(" ")[0]}</h1>
          <p className="text-ink-muted">Signed in as {me.username}</p>
        </div>
        <Button variant="outline" size="sm" onClick={() => logout.mutate()}>
          <LogOut aria-hidden="true" />
          Sign out
        </Button>
      </div>
      <section aria-label="Your credits" className={card}>
        <h2 className="text-lg font-semibold text-ink">Your credits</h2>
        <p className="text-4xl font-bold text-ink" data-testid="partner-credits">
          {me.credits ?? "—"}
        </p>
        {me.low_credits ? (
          <p role="status" className="flex items-center gap-2 text-sm text-warn">
            <TriangleAlert aria-hidden="true" className="size-4" />
            Fewer than {PARTNER_LOW_CREDITS} credits left: buy credits from us before you sell your next line.
          </p>
        ) : null}
        {me.credits === null ? <p className="text-sm text-ink-muted">Your balance could not be read from the panel just now.</p> : null}
      </section>
      <BuyCredits />
      <SellLine />
      <PartnerLines className={card} />
      <PartnerLedger />
    </>
  );
}

function SellLine() {
  const packages = usePartnerPackages();
  const sell = useSellLine();
  // one key per sale: sending the same form again after a lost answer is the same line
  const key = useRef(globalThis.crypto.randomUUID());
  const [failure, setFailure] = useState("");
  const [made, setMade] = useState("");
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(partnerLineSchema),
    defaultValues: { name: "", whatsapp: "", email: "", package_id: "" },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure("");
    setMade("");
    try {
      const line = await sell.mutateAsync({ line: values as NewPartnerLine, key: key.current });
      key.current = globalThis.crypto.randomUUID();
      reset();
      setMade(`Line made for ${line.name}: username ${line.username}, password ${line.password}.`);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) key.current = globalThis.crypto.randomUUID();
      setFailure(error instanceof Error ? error.message : "The line was not made. Please try again.");
    }
  });
  return (
    <section aria-label="Sell a line" className={card}>
      <h2 className="text-lg font-semibold text-ink">Sell a line</h2>
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label="Sell a line form">
        {failure ? (
          <p role="alert" className="text-sm text-bad sm:col-span-2">
            {failure}
          </p>
        ) : null}
        {made ? (
          <p role="status" className="text-sm text-ok sm:col-span-2">
            {made}
          </p>
        ) : null}
        <FormField id="line-name" label="Customer's name" required error={errors.name?.message}>
          <Input id="line-name" autoComplete="off" {...register("name")} />
        </FormField>
        <FormField id="line-package" label="Package" required error={errors.package_id?.message}>
          <Select id="line-package" {...register("package_id")}>
            <option value="">Choose a package</option>
            {packages.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} — {p.credits} credit{p.credits === 1 ? "" : "s"}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="line-whatsapp" label="Customer's WhatsApp" error={errors.whatsapp?.message}>
          <Input id="line-whatsapp" inputMode="tel" autoComplete="off" {...register("whatsapp")} />
        </FormField>
        <FormField id="line-email" label="Customer's e-mail" error={errors.email?.message}>
          <Input id="line-email" type="email" autoComplete="off" {...register("email")} />
        </FormField>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Making the line..." : "Make the line"}
          </Button>
        </div>
      </form>
    </section>
  );
}

const causeText = (cause: string, credits: number) =>
  cause.startsWith("order-refund-owed:")
    ? "Owed from a refunded purchase (already spent)"
    : cause.startsWith("order-refund:")
      ? "Taken back: a purchase refunded to you"
      : cause.startsWith("order:")
        ? "Bought from the shop"
        : cause.startsWith("line-refund:")
          ? cause.includes(":renew:")
            ? "Refund for a renewal not made"
            : "Refund for a line not made"
          : cause.startsWith("line:")
            ? cause.includes(":renew:")
              ? "A line you renewed"
              : "A line you sold"
            : credits > 0
              ? "Bought from us"
              : "Taken back by us";

function PartnerLedger() {
  const ledger = usePartnerLedger();
  return (
    <section aria-label="Your credit ledger" className={card}>
      <h2 className="text-lg font-semibold text-ink">Credit ledger</h2>
      {ledger.data?.length === 0 ? <p className="text-sm text-ink-muted">No credits moved yet.</p> : null}
      <ul className="flex flex-col gap-2 text-sm">
        {ledger.data
          ?.filter((t) => t.status === "done" || t.status === "owed")
          .map((t) => (
            <li key={t.id} className="flex flex-wrap justify-between gap-2 border-b border-line pb-2">
              <span>
                {formatDateTime(t.created_at)} · {causeText(t.cause, t.credits)}
                {t.note ? ` · ${t.note}` : ""}
              </span>
              <span className="font-semibold">
                {t.status === "owed" ? `${-t.credits} owed` : `${t.credits > 0 ? `+${t.credits}` : t.credits} → ${t.partner_after ?? "?"}`}
              </span>
            </li>
          ))}
      </ul>
    </section>
  );
}
