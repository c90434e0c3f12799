// The device the line is for (issue 32), on the order form and the payment review step: an app
// (a login: most customers), a MAG box or an Enigma2 receiver. A box is known to the panel by its
// MAC address, so choosing one asks for it; a MAG MAC outside Infomir's 00:1A:79 range gets a
// warning under the field (a typo is likely) but is still accepted. The rules are the shared
// schema's (shared/device-lines.ts), which the form's resolver runs.
import { TriangleAlert } from "lucide-react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { LINE_TYPE_HINTS, LINE_TYPE_LABELS, LINE_TYPES, macWarning, needsMac } from "@/shared/device-lines";
import { FieldError, FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
import { cn } from "@/web/lib/cn";

export interface DeviceLineFieldProps {
  /** the controls' id prefix: `{prefix}-lineType-{type}`, `{prefix}-mac` */
  idPrefix: string;
  /** the chosen type and the MAC as typed (watched by the form) */
  lineType: string;
  mac: string;
  typeField: UseFormRegisterReturn;
  macField: UseFormRegisterReturn;
  typeError?: string;
  macError?: string;
  className?: string;
}

export function DeviceLineField({ idPrefix, lineType, mac, typeField, macField, typeError, macError, className }: DeviceLineFieldProps) {
  const chosen = lineType || "m3u";
  const macId = `${idPrefix}-mac`;
  const typeId = `${idPrefix}-lineType`;
  const warning = macError ? "" : macWarning(chosen, mac);
  return (
    // A container: three choices side by side only where there is room for them (the order form's
    // width, not the review dialog's or a phone's).
    <div className={cn("@container flex flex-col gap-4", className)} data-testid="device-line-field">
      <fieldset className="flex flex-col gap-2" aria-describedby={typeError ? `${typeId}-error` : undefined}>
        <legend className="mb-2 text-sm font-medium text-ink">What will you watch on?</legend>
        <div className="grid gap-2 @2xl:grid-cols-3">
          {LINE_TYPES.map((type) => (
            <label
              key={type}
              htmlFor={`${typeId}-${type}`}
              className={cn(
                "flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40",
                chosen === type ? "border-accent bg-accent/10" : "border-line bg-surface-raised hover:border-line-strong",
              )}
            >
              <input
                id={`${typeId}-${type}`}
                type="radio"
                value={type}
                aria-describedby={`${typeId}-${type}-hint`}
                {...typeField}
                className="mt-1 size-4 shrink-0 accent-[var(--color-accent)]"
              />
              <span className="flex min-w-0 flex-col gap-0.5">
                <span className="font-semibold text-ink">{LINE_TYPE_LABELS[type]}</span>
                {/* its description (aria-describedby), kept out of the radio's name */}
                <span id={`${typeId}-${type}-hint`} aria-hidden="true" className="text-xs text-ink-muted">
                  {LINE_TYPE_HINTS[type]}
                </span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id={typeId} error={typeError} className="font-medium" />
      </fieldset>
      {needsMac(chosen) ? (
        <FormField
          id={macId}
          label={`Your ${LINE_TYPE_LABELS[chosen as keyof typeof LINE_TYPE_LABELS]}'s MAC address`}
          required
          error={macError}
          hint="On the sticker under the box, or on its screen under Settings > System information."
        >
          <Input
            id={macId}
            {...MAC_INPUT_PROPS}
            aria-required="true"
            className="max-w-72 font-mono uppercase placeholder:normal-case"
            {...fieldAria(macId, { error: macError, hint: true })}
            {...macField}
          />
        </FormField>
      ) : null}
      {needsMac(chosen) ? <MacWarning warning={warning} /> : null}
    </div>
  );
}

/** The device part of a request: a box's type and MAC; nothing for an app (the server's default), so a MAC typed and left is not sent. */
export function deviceRequest(values: { lineType?: string; mac?: string }): { lineType?: "mag" | "enigma2"; mac?: string } {
  const type = values.lineType;
  return type === "mag" || type === "enigma2" ? { lineType: type, mac: values.mac ?? "" } : {};
}

/** How a MAC is typed, in every form that asks for one: no autocorrect, shown upper case, the spec's placeholder. */
export const MAC_INPUT_PROPS = {
  autoComplete: "off",
  autoCapitalize: "characters",
  spellCheck: false,
  placeholder: "00:1A:79:xx:xx:xx",
} as const;

/** The warning (not a refusal) for a MAG MAC outside Infomir's range; nothing when there is none. */
export function MacWarning({ warning }: { warning: string }) {
  if (!warning) return null;
  return (
    <p
      role="status"
      data-testid="mac-warning"
      className="flex items-start gap-2 rounded-xl bg-warn/10 p-3 text-sm text-ink ring-1 ring-warn/30"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn" />
      {warning}
    </p>
  );
}
