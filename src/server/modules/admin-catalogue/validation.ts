// Request-body checks shared by the admin modules: zod in the handler (not in the route
// schema) so the 400 names every bad field in the schema's own words and the headline is the
// first of them, and so a rule that needs the stored row (a PATCH) can add its own fields.
import type { z } from "zod";
import { storablePayload } from "@/server/lib/clean-input";
import { badRequest, notFound } from "@/server/lib/errors";

/** {field: first message}; nested fields as dotted paths ('content.features.0.icon'). */
export function fieldMessages(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The 400 for these field problems; the first one is the headline. */
export function invalid(fields: Record<string, string>): never {
  throw badRequest(Object.values(fields)[0] ?? "Please check the information you entered.", fields);
}

/**
 * The body as a plain object (NUL characters, which PostgreSQL refuses in text, removed), or
 * {} when none was sent, so that missing fields are reported by name.
 */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || body === undefined || typeof body !== "object" || Array.isArray(body)) return {};
  return storablePayload(body);
}

/** Parse a request body with a schema, or throw the 400 naming every bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(bodyObject(body));
  if (!result.success) invalid(fieldMessages(result.error.issues));
  return result.data as z.output<S>;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from the path: anything that is not a UUID cannot name a row, so it is a 404 too. */
export function rowId(id: string, label: string): string {
  if (!UUID_PATTERN.test(id)) throw notFound(`${label} not found.`);
  return id.toLowerCase();
}
