// GET /api/admin/provisioning?status= → {data: jobs, newest first (the latest 200)}: each with
// the client's name, the action, the panel's words and raw answer when it failed, and the
// owner's instruction when it waits as a task (manual mode).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProvisioningJob } from "@/shared/business-schemas";
import { apiGet } from "@/web/lib/api";
import { adminKeys } from "../../admin-keys";

export type JobStatus = ProvisioningJob["status"];

export async function getProvisioningJobs(status: JobStatus | null, signal?: AbortSignal): Promise<ProvisioningJob[]> {
  const answer = await apiGet<{ data: ProvisioningJob[] }>(`/admin/provisioning${status ? `?status=${status}` : ""}`, { signal });
  return answer.data;
}

const inFlight = (jobs: ProvisioningJob[] | undefined) => jobs?.some((j) => j.status === "pending" || j.status === "running") ?? false;

/** Every job (status null), or those in one state: failed ones and tasks are asked for apart so none falls off the latest 200. */
export const provisioningJobsQuery = (status: JobStatus | null = null) =>
  queryOptions({
    queryKey: [...adminKeys.provisioning, "list", status ?? "all"],
    queryFn: ({ signal }) => getProvisioningJobs(status, signal),
    // The change feed refreshes it; while a job is on its way to the panel, a short poll too,
    // so its outcome shows within seconds even where the feed does not carry this table.
    refetchInterval: (query) => (inFlight(query.state.data) ? 4_000 : 60_000),
  });

export function useProvisioningJobs(status: JobStatus | null = null) {
  return useQuery(provisioningJobsQuery(status));
}
