// What every provider's calls to its server share (issue 43): how long an answer may take, how a
// call that could not be made becomes our error, and how an answer is read as a JSON object. What
// each provider signs, sends and makes of an answer stays in its own adapter.

/** How long a provider's server may take to answer one call before the call counts as unanswered. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Why something failed, for a message: an Error's message, else the value as text. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Whether a call was given up because the provider took longer than its time. */
export const timedOut = (error: unknown): boolean =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/**
 * One call to a provider's server, given up after `timeoutMs`. A call that could not be made
 * (refused, cut off, out of time) throws what `unreachable` makes of the error; an answer, whatever
 * its status, is returned for the adapter to read.
 */
export async function callProvider(
  url: string,
  init: Omit<RequestInit, "signal">,
  timeoutMs: number,
  unreachable: (error: unknown) => Error,
): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw unreachable(error);
  }
}

/** A text that is a JSON object, as that object; null for anything else (not JSON, an array, a number). */
export function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return null;
}
