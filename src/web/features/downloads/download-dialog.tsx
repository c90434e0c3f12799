// The download dialog (spec §2, §5, §7, §8): the app's name, version, size, devices and
// description; Download (counted by the server, then the app's link opens); its QR code data
// when it has some; and 'Send instructions' by WhatsApp and/or e-mail, one request per chosen
// channel, in parallel.
import { Download as DownloadIcon, Loader2, Mail, MessageCircle, QrCode, Send } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { Download } from "@/shared/api";
import { CONTACT_MESSAGES, validateInstructionContact } from "@/shared/contact";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { closeTab, openPendingTab, sendTabTo } from "@/web/lib/new-tab";
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

type Errors = Partial<Record<InstructionChannel | "form", string>>;

function SendInstructions({ app }: { app: Download }) {
  const id = useId();
  const [chosen, setChosen] = useState<Record<InstructionChannel, boolean>>({ whatsapp: false, email: false });
  const [contact, setContact] = useState<Record<InstructionChannel, string>>({ whatsapp: "", email: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const inputs = useRef<Record<InstructionChannel, HTMLInputElement | null>>({ whatsapp: null, email: null });

  const type = (channel: InstructionChannel, value: string) => {
    setContact((c) => ({ ...c, [channel]: value }));
    // Typing an address chooses its channel; clearing it un-chooses it.
    setChosen((c) => ({ ...c, [channel]: value.trim() !== "" }));
    setErrors((e) => ({ ...e, [channel]: undefined, form: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (!app.installation_guide?.trim() || isBuiltInApp(app)) {
      toast.error(DOWNLOAD_MESSAGES.noGuideTitle, { description: DOWNLOAD_MESSAGES.noGuide });
      return;
    }
    const channels = (["whatsapp", "email"] as const).filter((channel) => chosen[channel]);
    if (channels.length === 0) {
      setErrors({ form: CONTACT_MESSAGES.missing });
      return;
    }
    const found: Errors = {};
    for (const channel of channels) {
      const message = validateInstructionContact(channel, contact[channel]);
      if (message) found[channel] = message;
    }
    if (Object.keys(found).length) {
      setErrors(found);
      const first = channels.find((channel) => found[channel]);
      if (first) inputs.current[first]?.focus();
      return;
    }

    setErrors({});
    setSending(true);
    // Spec §7: one call per chosen channel, in parallel.
    const results = await Promise.allSettled(channels.map((channel) => sendInstructions(app.id, channel, contact[channel].trim())));
    setSending(false);
    const sent = channels.filter((_, i) => results[i].status === "fulfilled");
    const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    const reason = (error: unknown) => (error instanceof ApiError && error.message ? error.message : DOWNLOAD_MESSAGES.sendFailed);

    if (failures.length === 0) {
      toast.success(DOWNLOAD_MESSAGES.sent, {
        description: `We've sent the ${app.name} setup steps by ${sent.map((c) => CHANNEL_NAMES[c]).join(" and ")}.`,
      });
      setContact({ whatsapp: "", email: "" });
    } else if (failures.every((error) => error instanceof ApiError && error.code === "no_instructions")) {
      toast.error(DOWNLOAD_MESSAGES.noGuideTitle, { description: DOWNLOAD_MESSAGES.noGuide });
    } else if (sent.length > 0) {
      const failed = channels.filter((channel) => !sent.includes(channel));
      toast.error(DOWNLOAD_MESSAGES.partial, {
        description: `Sent by ${sent.map((c) => CHANNEL_NAMES[c]).join(" and ")}, but not by ${failed.map((c) => CHANNEL_NAMES[c]).join(" and ")}: ${reason(failures[0])}`,
      });
    } else {
      toast.error(DOWNLOAD_MESSAGES.sendFailedTitle, { description: reason(failures[0]) });
    }
  }

  const row = (
    channel: InstructionChannel,
    Icon: typeof Mail,
    label: string,
    inputProps: { type: string; placeholder: string; autoComplete: string },
  ) => {
    const inputId = `${id}-${channel}`;
    const errorId = `${inputId}-error`;
    const error = errors[channel];
    return (
      <div className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <input
            id={`${inputId}-choose`}
            type="checkbox"
            checked={chosen[channel]}
            onChange={(event) => {
              const checked = event.target.checked;
              setChosen((c) => ({ ...c, [channel]: checked }));
              setErrors((e) => ({ ...e, [channel]: undefined, form: undefined }));
            }}
            className="size-5 shrink-0 accent-accent"
          />
          <label htmlFor={`${inputId}-choose`} className="flex min-h-11 items-center gap-2 text-sm font-medium text-ink">
            <Icon aria-hidden="true" className="size-4 text-ink-muted" />
            Send by {label}
          </label>
        </div>
        <label htmlFor={inputId} className="sr-only">
          {channel === "whatsapp" ? "WhatsApp number" : "Email address"}
        </label>
        <Input
          ref={(element) => {
            inputs.current[channel] = element;
          }}
          id={inputId}
          name={channel}
          value={contact[channel]}
          onChange={(event) => type(channel, event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          inputMode={channel === "whatsapp" ? "tel" : "email"}
          className={cn(!chosen[channel] && "opacity-70")}
          {...inputProps}
        />
        {error ? (
          <p id={errorId} className="text-sm text-bad">
            {error}
          </p>
        ) : null}
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
        {errors.form ? (
          <p role="alert" className="text-sm text-bad">
            {errors.form}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" disabled={sending}>
          {sending ? <Loader2 aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
          {sending ? "Sending..." : "Send instructions"}
        </Button>
      </div>
    </form>
  );
}
