// The instant free trial after the order (issue 27): the code step (the 6 digits sent to the
// customer's WhatsApp or e-mail), then the result screen, which shows the line's details the
// moment the panel has made it (asked again every couple of seconds) and says they were sent too.
// When the shop receives WhatsApp messages (issue 41) the code step also offers one button that
// writes a code to the shop from their number; the trial is polled meanwhile, and the page moves
// on by itself once that message has started it.
import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { formatDateTime } from "@/shared/dates";
import { type TrialLine, type TrialStarted, type TrialVerify, type TrialVerifyInput, trialVerifySchema } from "@/shared/trial-schemas";
import { FormField, fieldAria } from "@/web/components/form-field";
import { SendCodeOnWhatsApp } from "@/web/components/send-code-on-whatsapp";
import { Button } from "@/web/components/ui/button";
import { CopyButton } from "@/web/components/ui/copy-button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { TRIAL_CODE_LIFE_MS, useResendTrialCode, useTrial, useVerifyTrial } from "./api/trial";

export const INSTANT_TRIAL_MESSAGES = {
  codeTitle: "Enter your code",
  replyHint: "Or tap the button: WhatsApp opens with a message holding a code. Send it from this number and your trial starts here.",
  replyOnly: "Tap the button: WhatsApp opens with a message holding a code. Send it from the number you gave and your trial starts here.",
  codeHint: "The 6 digits in the message. The code works for 10 minutes, once.",
  confirming: "Starting your trial...",
  resent: "We sent a new code where the first one went.",
  /** true for anyone: a number or address that had its trial, or a client's, is answered alike but gets no code (issue 46) */
  unlessHadOne:
    "unless this number or address has had its free trial or is on an account with us: then we wrote to you on the contacts we already have.",
  readyTitle: "Your free trial line is ready",
  waitingTitle: "Your free trial has started",
} as const;

export function InstantTrial({ trial, onClose }: { trial: TrialStarted; onClose: () => void }) {
  const verify = useVerifyTrial(trial.trialId);
  // with the WhatsApp link offered, the trial is asked after from the start: a message may start it,
  // until the last code sent stops working (a new code asks again)
  const [codeUntil, setCodeUntil] = useState(() => Date.now() + TRIAL_CODE_LIFE_MS);
  const query = useTrial(trial.trialId, verify.isSuccess || Boolean(trial.waLink), codeUntil);
  const started = verify.isSuccess || (query.data !== undefined && query.data.state !== "awaiting-code");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (started) heading.current?.focus();
  }, [started]);

  if (!started)
    return <CodeStep trial={trial} verify={verify} onClose={onClose} onNewCode={() => setCodeUntil(Date.now() + TRIAL_CODE_LIFE_MS)} />;
  const view = query.data ?? verify.data;
  return (
    <section aria-labelledby="trial-result-heading" className="flex flex-col gap-5" data-testid="trial-result">
      <h3
        id="trial-result-heading"
        ref={heading}
        tabIndex={-1}
        className="flex items-center gap-2 font-display text-2xl font-bold text-ink"
      >
        {view?.state === "ready" ? <CheckCircle2 aria-hidden="true" className="size-6 text-ok" /> : null}
        {view?.state === "ready" ? INSTANT_TRIAL_MESSAGES.readyTitle : INSTANT_TRIAL_MESSAGES.waitingTitle}
      </h3>
      <p role="status" className="text-ink-muted">
        {view?.state === "provisioning" ? <Loader2 aria-hidden="true" className="mr-2 inline size-4 animate-spin" /> : null}
        {view?.message}
      </p>
      {view?.line ? <LineDetails line={view.line} /> : null}
      {view?.endsAt ? <p className="text-sm text-ink-muted">Your trial runs until {formatDateTime(view.endsAt)} (SAST).</p> : null}
    </section>
  );
}

function CodeStep({
  trial,
  verify,
  onClose,
  onNewCode,
}: {
  trial: TrialStarted;
  verify: ReturnType<typeof useVerifyTrial>;
  onClose: () => void;
  /** a new code was sent: it works for another TRIAL_CODE_LIFE_MS */
  onNewCode: () => void;
}) {
  const form = useForm<TrialVerifyInput, unknown, TrialVerify>({ resolver: zodResolver(trialVerifySchema), defaultValues: { code: "" } });
  const resend = useResendTrialCode(trial.trialId);
  // where the code went: a new code goes where one arrives now, which may be elsewhere
  const [sentTo, setSentTo] = useState(trial.sentTo);
  // the link that writes a code to the shop (a new one with each new code)
  const [waLink, setWaLink] = useState(trial.waLink ?? null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const error = form.formState.errors.code?.message ?? form.formState.errors.root?.server?.message;

  const save = form.handleSubmit(async (values) => {
    try {
      await verify.mutateAsync(values);
    } catch (failure) {
      const message =
        failure instanceof ApiError ? failure.fields.code || failure.message : "Could not start your trial. Please try again.";
      if (failure instanceof ApiError && failure.fields.code) form.setError("code", { type: "server", message });
      else form.setError("root.server", { type: "server", message });
      toast.error("Your trial did not start", { description: message });
    }
  });

  const again = async () => {
    try {
      const answer = await resend.mutateAsync();
      setSentTo(answer.sentTo);
      setWaLink(answer.waLink ?? null);
      onNewCode();
      form.reset({ code: "" });
      toast.success(INSTANT_TRIAL_MESSAGES.resent);
    } catch (failure) {
      // Why not (too many codes, or none can reach them now, with what to do): at the code field too.
      const message = failure instanceof ApiError ? failure.fields.code || failure.message : "Please try again.";
      form.setError("code", { type: "server", message }, { shouldFocus: true });
      toast.error("No new code", { description: message });
    }
  };

  return (
    <section aria-labelledby="trial-code-heading" className="flex flex-col gap-4">
      <h3 id="trial-code-heading" ref={heading} tabIndex={-1} className="font-display text-2xl font-bold text-ink">
        {INSTANT_TRIAL_MESSAGES.codeTitle}
      </h3>
      {sentTo ? (
        <p className="text-ink-muted">
          We sent a code to {sentTo}, {INSTANT_TRIAL_MESSAGES.unlessHadOne} Enter it to start your free trial now: your line details show
          here.
        </p>
      ) : null}
      {waLink ? (
        <div className="flex flex-col gap-2">
          <p className="text-ink-muted">{sentTo ? INSTANT_TRIAL_MESSAGES.replyHint : INSTANT_TRIAL_MESSAGES.replyOnly}</p>
          <SendCodeOnWhatsApp href={waLink} primary={!sentTo} />
        </div>
      ) : null}
      <form onSubmit={save} noValidate aria-label="Free trial code" className="flex flex-col gap-4">
        <FormField id="trial-code" label="Code" required error={error} hint={INSTANT_TRIAL_MESSAGES.codeHint}>
          <Input
            id="trial-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            aria-required="true"
            className="font-mono text-lg tracking-[0.3em] sm:max-w-56"
            {...fieldAria("trial-code", { error, hint: true })}
            {...form.register("code")}
          />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" size="lg" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? INSTANT_TRIAL_MESSAGES.confirming : "Start My Free Trial"}
          </Button>
          <Button type="button" variant="ghost" onClick={again} disabled={resend.isPending}>
            Send a new code
          </Button>
          <Button type="button" variant="ghost" onClick={onClose}>
            Back to the form
          </Button>
        </div>
      </form>
    </section>
  );
}

function LineDetails({ line }: { line: TrialLine }) {
  const rows: [string, string][] = [
    ["Server URL", line.server_url],
    ["Username", line.username],
    ["Password", line.password],
    ["M3U playlist", line.m3u_url],
  ];
  return (
    <dl className="grid gap-3 rounded-2xl bg-surface-raised p-5 ring-1 ring-line" data-testid="trial-line">
      {rows.map(([label, value]) => (
        <div key={label} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
          <dt className="text-sm text-ink-muted">{label}</dt>
          <dd className="flex min-w-0 items-center gap-2">
            <span className="font-mono text-sm break-all text-ink">{value}</span>
            <CopyButton value={value} label={label} size="sm" variant="ghost" />
          </dd>
        </div>
      ))}
    </dl>
  );
}
