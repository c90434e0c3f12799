// The server's field errors ({"error": {"fields": {...}}}) onto a react-hook-form form.
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "@/web/lib/api";

/** Puts each field error the server named on its field; returns whether any was placed. */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, known: readonly Path<T>[]): boolean {
  if (!(error instanceof ApiError)) return false;
  let placed = false;
  for (const [field, message] of Object.entries(error.fields)) {
    if ((known as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: "server", message });
      placed = true;
    }
  }
  return placed;
}

/** The words to show for a failed call: the server's message, or a plain fallback. */
export function errorMessage(error: unknown, fallback = "An unexpected error occurred. Please try again."): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
