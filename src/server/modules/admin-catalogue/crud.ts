// The admin's list/create/read/update/delete routes for one table (docs/architecture.md, "API"):
//   GET    /admin/<name>       → {data: [...]}  every row, active or not, in the given order
//   POST   /admin/<name>       → 201 the row
//   GET    /admin/<name>/:id   → the row
//   PATCH  /admin/<name>/:id   → the row
//   DELETE /admin/<name>/:id   → {success: true}
// Each write runs in one transaction with its audit entry (before/after), so the log and the
// data never disagree. Public reads pick the change up through the change feed's triggers.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Db } from "@/server/db/client";
import { audit } from "@/server/lib/audit";
import { conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { bodyObject, parseBody, rowId } from "./validation";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Row = Record<string, unknown>;

export interface ResourceDefinition {
  /** the URL segment under /api/admin, also the audit log's resource name */
  name: string;
  /** for messages: 'Package' → 'Package not found.' */
  label: string;
  table: PgTable;
  id: PgColumn;
  createSchema: z.ZodType<Row>;
  patchSchema: z.ZodType<Row>;
  orderBy: SQL[];
  /** rows outside this condition do not exist as far as the admin API is concerned */
  visible?: SQL;
  /** nullable fields where a blank or null in a PATCH means "clear it" (the schemas read blank as absent) */
  clearable?: readonly string[];
  /** timestamp columns: ISO strings from the schema become Dates */
  dates?: readonly string[];
  /** the values to insert; may check against other rows and throw a 400 */
  toInsert?: (input: Row, tx: Tx) => Row | Promise<Row>;
  /** the values to set; sees the stored row, so rules spanning both are checked here */
  toUpdate?: (patch: Row, existing: Row, tx: Tx) => Row | Promise<Row>;
  /** unique constraint name → the field it is about and what to tell the admin */
  unique?: Record<string, { field: string; message: string }>;
  /** leave out the generic POST (the resource registers its own) */
  customCreate?: boolean;
  /** what the list answers for its rows, when it adds what the table does not hold */
  toList?: (rows: Row[], db: Db) => Row[] | Promise<Row[]>;
}

const idParams = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Dates for the named keys that hold ISO strings; everything else unchanged. */
export function withDates(values: Row, keys: readonly string[] = []): Row {
  const out: Row = { ...values };
  for (const key of keys) {
    const v = out[key];
    if (typeof v === "string") out[key] = new Date(v);
  }
  return out;
}

/** Run a write; a unique violation the definition knows becomes a 409 naming the field. */
export async function guardUnique<T>(unique: ResourceDefinition["unique"], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = uniqueViolation(error);
    const known = constraint !== null ? unique?.[constraint] : undefined;
    if (known) throw conflict(known.message, { [known.field]: known.message });
    throw error;
  }
}

export function registerResource(app: FastifyInstance, def: ResourceDefinition): void {
  const { table, id: idColumn, label } = def;
  const base = `/admin/${def.name}`;
  const where = (id: string) => (def.visible ? and(eq(idColumn, id), def.visible) : eq(idColumn, id));
  const missing = () => notFound(`${label} not found.`);

  async function lockRow(tx: Tx, id: string): Promise<Row> {
    const [row] = await tx.select().from(table).where(where(id)).for("update");
    if (!row) throw missing();
    return row as Row;
  }

  app.get(base, async () => {
    const query = app.db.select().from(table);
    const rows = (await (def.visible ? query.where(def.visible) : query).orderBy(...def.orderBy)) as Row[];
    return { data: def.toList ? await def.toList(rows, app.db) : rows };
  });

  if (!def.customCreate) {
    app.post(base, async (request, reply) => {
      const input = parseBody(def.createSchema, request.body);
      const row = await guardUnique(def.unique, () =>
        app.db.transaction(async (tx) => {
          const values = withDates(def.toInsert ? await def.toInsert(input, tx) : input, def.dates);
          const [created] = (await tx.insert(table).values(values).returning()) as Row[];
          await audit(tx, request, { action: "create", resource: def.name, resourceId: String(created.id), after: created });
          return created;
        }),
      );
      return reply.status(201).send(row);
    });
  }

  app.get(`${base}/:id`, async (request) => {
    const id = rowId(idParams(request), label);
    const [row] = await app.db.select().from(table).where(where(id));
    if (!row) throw missing();
    return row;
  });

  app.patch(`${base}/:id`, async (request) => {
    const id = rowId(idParams(request), label);
    const body = bodyObject(request.body);
    const patch = parseBody(def.patchSchema, body);
    // Only what the admin sent and the schema kept; a blank optional field clears it.
    const sent: Row = {};
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) sent[key] = value;
    for (const key of def.clearable ?? []) if (key in body && patch[key] === undefined) sent[key] = null;
    return guardUnique(def.unique, () =>
      app.db.transaction(async (tx) => {
        const before = await lockRow(tx, id);
        const values = withDates(def.toUpdate ? await def.toUpdate(sent, before, tx) : sent, def.dates);
        if (Object.keys(values).length === 0) return before;
        const [after] = (await tx
          .update(table)
          .set({ ...values, ...("updated_at" in before ? { updated_at: sql`now()` } : {}) })
          .where(eq(idColumn, id))
          .returning()) as Row[];
        await audit(tx, request, { action: "update", resource: def.name, resourceId: id, before, after });
        return after;
      }),
    );
  });

  app.delete(`${base}/:id`, async (request) => {
    const id = rowId(idParams(request), label);
    await app.db.transaction(async (tx) => {
      const before = await lockRow(tx, id);
      await tx.delete(table).where(eq(idColumn, id));
      await audit(tx, request, { action: "delete", resource: def.name, resourceId: id, before, after: null });
    });
    return { success: true };
  });
}
