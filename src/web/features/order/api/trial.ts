// Instant free trials (issue 27): the code step and the result screen.
//   POST /api/trials/:id/verify {code} → 201 the trial (its line follows in seconds)
//   POST /api/trials/:id/resend        → 202 {trialId, sentTo}
//   GET  /api/trials/:id               → the trial; polled until the line is there (or the panel is slow)
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TrialStarted, TrialVerifyInput, TrialView } from "@/shared/trial-schemas";
import { apiGet, apiSend } from "@/web/lib/api";

export const trialKeys = { trial: (id: string) => ["trial", id] as const };

/** How often the result screen asks again while the panel makes the line. */
export const TRIAL_POLL_MS = 2000;

export function getTrial(id: string, signal?: AbortSignal): Promise<TrialView> {
  return apiGet<TrialView>(`/trials/${encodeURIComponent(id)}`, { signal });
}

/**
 * How long a code can still start the trial (the server's CODE_MINUTES, lib/verification.ts): while
 * it waits for one, the page asks no longer than that after the code was sent.
 */
export const TRIAL_CODE_LIFE_MS = 10 * 60_000;

/** `awaitCodeUntil`: when the last code sent stops working (ms since the epoch); no asking for a start after it. */
export const trialQuery = (id: string, awaitCodeUntil = Number.POSITIVE_INFINITY) =>
  queryOptions({
    queryKey: trialKeys.trial(id),
    queryFn: ({ signal }) => getTrial(id, signal),
    // the line is made by the panel a moment after the code: ask again until it is there; a trial
    // still waiting for its code is asked after only while that code can still start it
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      if (state === "ready" || state === "failed") return false;
      if ((state === undefined || state === "awaiting-code") && Date.now() > awaitCodeUntil) return false;
      return TRIAL_POLL_MS;
    },
    // also while the customer is in another app (their player, WhatsApp): it stops once the line is there
    refetchIntervalInBackground: true,
    retry: 1,
  });

export function useTrial(id: string, enabled: boolean, awaitCodeUntil?: number) {
  return useQuery({ ...trialQuery(id, awaitCodeUntil), enabled });
}

export function useVerifyTrial(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TrialVerifyInput) => apiSend<TrialView>("POST", `/trials/${encodeURIComponent(id)}/verify`, body),
    onSuccess: (view) => client.setQueryData(trialKeys.trial(id), view),
  });
}

export function useResendTrialCode(id: string) {
  return useMutation({
    mutationFn: () => apiSend<TrialStarted>("POST", `/trials/${encodeURIComponent(id)}/resend`),
  });
}
