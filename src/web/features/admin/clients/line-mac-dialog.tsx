// The owner's MAC tool on a client's page (issue 32): set the MAC of a box whose line is not made
// yet (its line type chosen here: MAG or Enigma2), or move a box's line on the panel to a new MAC.
// The same change as the client's own in the portal, without its cooldown or monthly limit, and
// recorded in the audit log under the owner's name.
import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import { type Resolver, useWatch } from "react-hook-form";
import { type AdminMac, adminMacSchema } from "@/shared/device-line-schemas";
import { LINE_TYPE_LABELS, macWarning, needsMac } from "@/shared/device-lines";
import { MAC_INPUT_PROPS, MacWarning } from "@/web/components/device-line-field";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { Field, FormError } from "../components/form-field";
import { FormOnlyDialog } from "../components/form-only-dialog";
import { useServerForm } from "../components/use-server-form";
import { useSetLineMac } from "./api/set-line-mac";
import type { ClientDialogProps } from "./client-dialog";

interface LineMacValues {
  mac: string;
  lineType: "mag" | "enigma2";
}

/** A key per attempt (crypto.randomUUID needs a secure context; plain HTTP falls back). */
const attemptKey = () =>
  typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

export function LineMacDialog({ client, open, onOpenChange }: ClientDialogProps) {
  return <FormOnlyDialog open={open} onOpenChange={onOpenChange} form={(onDone) => <LineMacForm client={client} onDone={onDone} />} />;
}

function LineMacForm({ client, onDone }: { client: ClientDialogProps["client"]; onDone: () => void }) {
  const save = useSetLineMac();
  const onPanel = Boolean(client.panel_line_id);
  const box = needsMac(client.line_type);
  const attempt = useRef<{ mac: string; key: string } | null>(null);
  const { register, control, errors, isSubmitting, onSubmit } = useServerForm({
    resolver: zodResolver(adminMacSchema) as unknown as Resolver<LineMacValues, unknown, AdminMac>,
    defaultValues: { mac: "", lineType: client.line_type === "enigma2" ? "enigma2" : "mag" },
    send: async (input) => {
      // A line on the panel keeps its type: only the MAC is sent.
      const body = onPanel ? { mac: input.mac } : input;
      if (attempt.current?.mac !== input.mac) attempt.current = { mac: input.mac, key: attemptKey() };
      const answer = await save.mutateAsync({ id: client.id, body, key: attempt.current.key });
      toast.success(answer.change ? "MAC change sent to the panel" : "MAC address saved", {
        description: answer.change
          ? `${client.full_name}'s line moves to ${answer.change.new_mac} with the next panel job.`
          : `${client.full_name}'s line will be made for ${answer.line_mac}. If a panel job failed over the MAC, retry it below.`,
      });
      onDone();
    },
    failure: { fields: ["mac", "lineType"], toast: "MAC address not saved" },
  });
  const [mac, lineType] = useWatch({ control, name: ["mac", "lineType"] });
  const warning = errors.mac ? "" : macWarning(lineType, mac);

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>{box && client.line_mac ? "Change the box's MAC address" : "Set the box's MAC address"}</DialogTitle>
        <DialogDescription>
          {onPanel
            ? `The line of ${client.full_name}'s ${LINE_TYPE_LABELS[lineType]} moves to the new MAC address on the panel, and the old one is freed. No cooldown applies, and it does not count against their own changes.`
            : `${client.full_name} has no line on the panel yet: it will be made for this box.`}
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        {onPanel ? null : (
          <Field label="Device" error={errors.lineType?.message}>
            {(c) => (
              <Select {...c} {...register("lineType")}>
                <option value="mag">{LINE_TYPE_LABELS.mag}</option>
                <option value="enigma2">{LINE_TYPE_LABELS.enigma2}</option>
              </Select>
            )}
          </Field>
        )}
        {client.line_mac ? (
          <p className="text-sm text-ink-muted">
            Now: <span className="font-mono text-ink">{client.line_mac}</span>
          </p>
        ) : null}
        <Field label="New MAC address" required error={errors.mac?.message} hint="As printed on the box, e.g. 00:1A:79:12:34:56.">
          {(c) => <Input {...c} {...register("mac")} {...MAC_INPUT_PROPS} className="font-mono uppercase placeholder:normal-case" />}
        </Field>
        <MacWarning warning={warning} />
      </div>
      <DialogActions
        onCancel={onDone}
        busy={isSubmitting}
        submit={onPanel ? "Change MAC address" : "Save MAC address"}
        busyLabel="Saving..."
      />
    </form>
  );
}
