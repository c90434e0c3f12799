// A 401 from any call of one face (admin or client) means its session ended: expired, revoked,
// signed out in another tab, the password changed on another device. Dropping the cached session
// lets that face's guard send the person to sign in again.
import type { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * Watches the queries whose key starts with `keyPrefix`, and every mutation, for a 401; then
 * sets `sessionKey` to null. Returns a function that stops watching.
 */
export function endSessionOnUnauthorized(queryClient: QueryClient, sessionKey: readonly unknown[], keyPrefix: string): () => void {
  const endSession = () => queryClient.setQueryData(sessionKey, null);
  const offQueries = queryClient.getQueryCache().subscribe((event) => {
    if (
      event.type === "updated" &&
      event.action.type === "error" &&
      event.query.queryKey[0] === keyPrefix &&
      isUnauthorized(event.action.error)
    )
      endSession();
  });
  const offMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === "updated" && event.action.type === "error" && isUnauthorized(event.action.error)) endSession();
  });
  return () => {
    offQueries();
    offMutations();
  };
}
