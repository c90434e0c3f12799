// GET /api/admin/launch-checklist → {items: [{key, label, done, why, href}], done}: what the shop
// still shows from the demo seed or has not connected. Refreshed by the change feed when settings, branding or demo content change.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { LaunchChecklist } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export const launchChecklistQuery = queryOptions({
  queryKey: adminKeys.launchChecklist,
  queryFn: ({ signal }) => apiGet<LaunchChecklist>("/admin/launch-checklist", { signal }),
});

export function useLaunchChecklist() {
  return useQuery(launchChecklistQuery);
}
