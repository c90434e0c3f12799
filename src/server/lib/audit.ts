// The audit log: every admin write records who, when, what, and the row before and after.
// Write it in the same transaction as the change so the log and the data never disagree.
import type { FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { auditLog } from "@/server/db/schema";

type Executor = Pick<Db, "insert">;

/** Fields never copied into the audit log. */
const SECRET_FIELDS = new Set(["password_hash", "line_password", "token_hash"]);

function scrub(row: unknown): unknown {
  if (!row || typeof row !== "object") return row ?? null;
  return Object.fromEntries(Object.entries(row as Record<string, unknown>).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? "[hidden]" : v]));
}

export interface AuditEntry {
  action: "create" | "update" | "delete" | (string & {});
  resource: string;
  resourceId?: string | null;
  before?: unknown;
  after?: unknown;
}

export async function audit(executor: Executor, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  await executor.insert(auditLog).values({
    admin_id: request.admin?.id ?? null,
    admin_email: request.admin?.email ?? "",
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId ?? null,
    before: scrub(entry.before) as never,
    after: scrub(entry.after) as never,
  });
}
