// GET /api/admin/launch-checklist: what the shop still shows from the demo seed or has not
// connected. Refreshed by the change feed when settings, branding or demo content change.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { LaunchChecklist } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export const launchChecklistQuery = queryOptions({
  queryKey: adminKeys.launchChecklist,
  queryFn: ({ signal }) => apiGet<{ data: LaunchChecklist }>("/admin/launch-checklist", { signal }).then((body) => body.data),
});

export function useLaunchChecklist() {
  return useQuery(launchChecklistQuery);
}
