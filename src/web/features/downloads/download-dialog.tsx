// The download dialog (spec §2, §5, §7, §8): the app's name, version, size, devices and
// description; Download (counted by the server, then the app's link opens); its QR code data
// when it has some; and 'Send instructions' by WhatsApp and/or e-mail (the shared
// instructionsFormSchema, with the POPIA notice), one request per chosen channel, in parallel.
import { zodResolver } from "@hookform/resolvers/zod";
import { Download as DownloadIcon, Loader2, Mail, MessageCircle, QrCode, Send } from "lucide-react";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { type Resolver, useForm, useWatch } from "react-hook-form";
import type { Download } from "@/shared/api";
import { type InstructionsForm, instructionsFormSchema } from "@/shared/schemas";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { closeTab, openPendingTab, sendTabTo } from "@/web/lib/new-tab";
import { markOwnChange } from "@/web/lib/own-changes";
import { toast } from "@/web/lib/toast";
import { type InstructionChannel, sendInstructions } from "./api/send-instructions";
import { startDownload } from "./api/start-download";
import { AppLogo } from "./app-logo";
import { isBuiltInApp } from "./built-in-apps";
import { appDevices, deviceLabel } from "./devices";

export const DOWNLOAD_MESSAGES = {
  started: "Download Started",
  noUrlTitle: "Error",
  noUrl: "Download URL not available",
  failedTitle: "Download Error",
  failed: "Failed to start download. Please try again.",
  noGuideTitle: "No Instructions Available",
  noGuide: "Installation guide not available for this app",
  sent: "Instructions Sent!",
  partial: "Partially Sent",
  sendFailedTitle: "Send Failed",
  sendFailed: "Failed to send instructions. Please try again.",
} as const;

const CHANNEL_NAMES: Record<InstructionChannel, string> = { whatsapp: "WhatsApp", email: "e-mail" };

/** A link the browser may open from the QR data: web links only. */
function qrLink(data: string): string | null {
  return /^https?:\/\//i.test(data.trim()) ? data.trim() : null;
}

export function DownloadDialog({ app, onClose }: { app: Download; onClose: () => void }) {
  const devices = appDevices(app);
  const facts = [app.version ? `Version ${app.version}` : "", app.file_size, app.file_type].filter(Boolean);
  const [downloading, setDownloading] = useState(false);
  const qr = app.qr_code_data?.trim() || null;

  async function onDownload() {
    if (downloading) return;
    // Spec §5: a download needs a link. The built-in stand-ins have none.
    if (!app.download_url || isBuiltInApp(app)) {
      toast.error(DOWNLOAD_MESSAGES.noUrlTitle, { description: DOWNLOAD_MESSAGES.noUrl });
      return;
    }
    const tab = openPendingTab(`Opening ${app.name}...`);
    setDownloading(true);
    // Counting the download changes the app's row: no 'Data Updated' for the visitor's own click.
    markOwnChange("downloads", app.id);
    try {
      const { url } = await startDownload(app.id);
      if (!url) throw new ApiError(404, "no_download_url", DOWNLOAD_MESSAGES.noUrl);
      sendTabTo(tab, url);
      toast.success(DOWNLOAD_MESSAGES.started, { description: `${app.name} opens in a new tab.` });
    } catch (error) {
      closeTab(tab);
      if (error instanceof ApiError && error.status === 404 && error.code === "no_download_url") {
        toast.error(DOWNLOAD_MESSAGES.noUrlTitle, { description: DOWNLOAD_MESSAGES.noUrl });
      } else {
        if (!(error instanceof ApiError)) console.error(error);
        toast.error(DOWNLOAD_MESSAGES.failedTitle, { description: DOWNLOAD_MESSAGES.failed });
      }
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-xl">
        <DialogHeader className="flex-row items-center gap-4">
          <AppLogo app={app} />
          <div className="flex min-w-0 flex-col gap-1">
            <DialogTitle>{app.name}</DialogTitle>
            <DialogDescription className="tabular">{facts.length ? facts.join(" · ") : "Player app"}</DialogDescription>
          </div>
        </DialogHeader>

        {app.description ? <p className="text-ink-muted">{app.description}</p> : null}

        {devices.length ? (
          <div className="mt-5">
            <h3 className="mb-2 text-sm font-semibold text-ink">Works on</h3>
            <ul className="flex flex-wrap gap-2">
              {devices.map((device) => (
                <li key={device} className="rounded-full bg-surface-overlay px-3 py-1 text-sm text-ink-muted ring-1 ring-line">
                  {deviceLabel(device)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <Button size="lg" className="mt-6 w-full" onClick={onDownload} disabled={downloading}>
          {downloading ? <Loader2 aria-hidden="true" className="animate-spin" /> : <DownloadIcon aria-hidden="true" />}
          {downloading ? "Starting download..." : "Download"}
        </Button>

        {qr ? (
          <div className="mt-5 flex items-start gap-3 rounded-xl border border-line bg-surface-raised p-4 text-sm">
            <QrCode aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ink-muted" />
            <div className="min-w-0">
              <p className="font-semibold text-ink">On your TV or phone</p>
              <p className="text-ink-muted">Open this address (or its QR code) on the device you're setting up:</p>
              {qrLink(qr) ? (
                <a
                  href={qrLink(qr) ?? undefined}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="mt-1 block break-all font-mono text-accent-ink underline underline-offset-2"
                >
                  {qr}
                </a>
              ) : (
                <p className="mt-1 font-mono break-all text-ink">{qr}</p>
              )}
            </div>
          </div>
        ) : null}

        <SendInstructions app={app} />
      </DialogContent>
    </Dialog>
  );
}

/** What the form holds: which channels are chosen and the contact typed for each. */
type InstructionValues = { sendWhatsapp: boolean; whatsapp: string; sendEmail: boolean; email: string };

const EMPTY_INSTRUCTIONS: InstructionValues = { sendWhatsapp: false, whatsapp: "", sendEmail: false, email: "" };
const instructionsResolver = zodResolver(instructionsFormSchema) as unknown as Resolver<InstructionValues, unknown, InstructionsForm>;
const CHOICE: Record<InstructionChannel, "sendWhatsapp" | "sendEmail"> = { whatsapp: "sendWhatsapp", email: "sendEmail" };

/**
 * Spec §8: 'Send Failed' with the message, or 'Failed to send instructions. Please try again.'
 * The message is our server's own words; a gateway's status line ("The server answered 500 ...")
 * or our server's unexpected failure says nothing a visitor can act on, so they get the spec's text.
 */
export function sendFailureReason(error: unknown): string {
  if (error instanceof ApiError && error.code && error.code !== "internal" && error.message) return error.message;
  return DOWNLOAD_MESSAGES.sendFailed;
}

function SendInstructions({ app }: { app: Download }) {
  const id = useId();
  const { register, handleSubmit, setValue, setError, reset, clearErrors, control, formState } = useForm<
    InstructionValues,
    unknown,
    InstructionsForm
  >({
    defaultValues: EMPTY_INSTRUCTIONS,
    resolver: instructionsResolver,
    mode: "onSubmit",
    reValidateMode: "onSubmit",
  });
  const [sendWhatsapp, sendEmail] = useWatch({ control, name: ["sendWhatsapp", "sendEmail"] });
  const chosen: Record<InstructionChannel, boolean> = { whatsapp: sendWhatsapp, email: sendEmail };
  const { errors, isSubmitting } = formState;
  const noChannel = (errors as typeof errors & { channels?: { message?: string } }).channels?.message;

  const send = async (values: InstructionsForm) => {
    const channels = (["whatsapp", "email"] as const).filter((channel) => values[CHOICE[channel]]);
    // Spec §7: one call per chosen channel, in parallel.
    const results = await Promise.allSettled(channels.map((channel) => sendInstructions(app.id, channel, values[channel])));
    const sent = channels.filter((_, i) => results[i].status === "fulfilled");
    const failed = channels.filter((channel) => !sent.includes(channel));
    const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    // The server's reason about a contact goes beside that contact's field, what was typed kept.
    failed.forEach((channel, i) => {
      const error = failures[i];
      const message = error instanceof ApiError ? error.fields.contact : undefined;
      if (message) setError(channel, { type: "server", message });
    });

    if (failures.length === 0) {
      toast.success(DOWNLOAD_MESSAGES.sent, {
        description: `We've sent the ${app.name} setup steps by ${sent.map((c) => CHANNEL_NAMES[c]).join(" and ")}.`,
      });
      reset(EMPTY_INSTRUCTIONS);
    } else if (failures.every((error) => error instanceof ApiError && error.code === "no_instructions")) {
      toast.error(DOWNLOAD_MESSAGES.noGuideTitle, { description: DOWNLOAD_MESSAGES.noGuide });
    } else if (sent.length > 0) {
      toast.error(DOWNLOAD_MESSAGES.partial, {
        description: `Sent by ${sent.map((c) => CHANNEL_NAMES[c]).join(" and ")}, but not by ${failed.map((c) => CHANNEL_NAMES[c]).join(" and ")}: ${sendFailureReason(failures[0])}`,
      });
    } else {
      toast.error(DOWNLOAD_MESSAGES.sendFailedTitle, { description: sendFailureReason(failures[0]) });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    // Spec §5: sending needs the app's own guide, whatever the visitor typed.
    if (!app.installation_guide?.trim() || isBuiltInApp(app)) {
      toast.error(DOWNLOAD_MESSAGES.noGuideTitle, { description: DOWNLOAD_MESSAGES.noGuide });
      return;
    }
    void handleSubmit(send)(event);
  };

  const row = (
    channel: InstructionChannel,
    Icon: typeof Mail,
    label: string,
    inputProps: { type: string; placeholder: string; autoComplete: string },
  ) => {
    const inputId = `${id}-${channel}`;
    const error = errors[channel]?.message;
    const choice = CHOICE[channel];
    return (
      <div className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <input
            id={`${inputId}-choose`}
            type="checkbox"
            {...register(choice, { onChange: () => clearErrors([channel, "channels" as never]) })}
            className="size-5 shrink-0 accent-accent"
          />
          <label htmlFor={`${inputId}-choose`} className="flex min-h-11 items-center gap-2 text-sm font-medium text-ink">
            <Icon aria-hidden="true" className="size-4 text-ink-muted" />
            Send by {label}
          </label>
        </div>
        <label htmlFor={inputId} className="sr-only">
          {channel === "whatsapp" ? "WhatsApp number" : "E-mail address"}
        </label>
        <Input
          id={inputId}
          {...fieldAria(inputId, { error })}
          inputMode={channel === "whatsapp" ? "tel" : "email"}
          className={cn(!chosen[channel] && "opacity-70")}
          {...inputProps}
          {...register(channel, {
            // Typing an address chooses its channel; clearing it un-chooses it.
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              setValue(choice, event.target.value.trim() !== "");
              clearErrors([channel, "channels" as never]);
            },
          })}
        />
        <FieldError id={inputId} error={error} />
      </div>
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 border-t border-line pt-6" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="text-base font-semibold text-ink">
        Send instructions
      </h3>
      <p className="mt-1 text-sm text-ink-muted">Get the step-by-step setup guide for {app.name} on WhatsApp, by e-mail, or both.</p>
      <div className="mt-4 flex flex-col gap-4">
        {row("whatsapp", MessageCircle, "WhatsApp", { type: "tel", placeholder: "+27 82 123 4567", autoComplete: "tel" })}
        {row("email", Mail, "e-mail", { type: "email", placeholder: "you@example.co.za", autoComplete: "email" })}
        {noChannel ? (
          <p role="alert" className="text-sm text-bad">
            {noChannel}
          </p>
        ) : null}
        <PopiaNotice
          collected="the WhatsApp number or e-mail address you enter here"
          purpose={`send you the ${app.name} setup guide`}
          required="Enter at least one of them."
        />
        <Button type="submit" variant="secondary" disabled={isSubmitting}>
          {isSubmitting ? <Loader2 aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
          {isSubmitting ? "Sending..." : "Send instructions"}
        </Button>
      </div>
    </form>
  );
}
