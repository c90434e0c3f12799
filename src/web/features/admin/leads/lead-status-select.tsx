// The lead's status, changed in place from the list or the drawer.

import type { AdminLead, LeadStatus } from "@/shared/business-schemas";
import { Select } from "@/web/components/ui/select";
import { toast } from "@/web/lib/toast";
import { useUpdateLead } from "./api/update-lead";
import { leadStatusOptions } from "./lead-labels";

export function LeadStatusSelect({ lead, className }: { lead: AdminLead; className?: string }) {
  const update = useUpdateLead();
  const value = update.isPending && update.variables?.patch.status ? update.variables.patch.status : lead.status;
  return (
    <Select
      aria-label={`Status of ${lead.name}'s lead`}
      value={value}
      disabled={update.isPending}
      className={className ?? "min-h-11 w-36 py-0 text-sm"}
      onChange={(event) => {
        const status = event.target.value as LeadStatus;
        update.mutate(
          { id: lead.id, patch: { status } },
          {
            onSuccess: () => toast.success("Lead updated", { description: `${lead.name} is now ${status}.` }),
            onError: (error) => toast.error("Update failed", { description: error.message }),
          },
        );
      }}
    >
      {leadStatusOptions.map((option) => (
        <option key={option.value} value={option.value} disabled={option.value === "converted" && !lead.client_id}>
          {option.label}
        </option>
      ))}
    </Select>
  );
}
