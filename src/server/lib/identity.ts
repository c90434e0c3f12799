// Who a person is (docs/architecture.md, "Payments" and "Identity"): the one place that matches
// a WhatsApp number or e-mail address to a client. Orders, payments, the portal and the
// dashboard ask here; none of them matches on its own. A match is only ever a suggestion: money
// goes to an existing client only when the payer proved they are that client (signed in, or a
// one-time code sent to the client's recorded channel, lib/verification.ts). An unproven match
// makes a new client flagged `possible_duplicate_of` for the owner to merge or dismiss.
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rowsOf } from "@/server/db/rows";
import { clients } from "@/server/db/schema";
import { formatPhoneForDisplay, normaliseWhatsAppNumber, toStoredWhatsApp } from "@/shared/whatsapp";
import { conflict } from "./errors";

type Executor = Pick<Db, "select">;
export type ClientRow = typeof clients.$inferSelect;

/** A client that is a customer in its own right: not a flagged possible duplicate, not merged away. */
const standing = and(isNull(clients.possible_duplicate_of), isNull(clients.merged_into));

/** The stored form of a number: 27… for a South African number, else its digits ('' for none). */
export function storedNumber(input: string): string {
  return toStoredWhatsApp(input) ?? normaliseWhatsAppNumber(input);
}

/** The client whose WhatsApp number this is (numbers are unique among standing clients). */
export async function clientByNumber(db: Executor, number: string): Promise<ClientRow | null> {
  const digits = storedNumber(number);
  if (!digits) return null;
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.whatsapp, digits), standing))
    .limit(1);
  return row ?? null;
}

/** The standing client with this e-mail address (any case); the most recently active when several share it. */
export async function clientByEmail(db: Executor, email: string): Promise<ClientRow | null> {
  const address = email.trim().toLowerCase();
  if (!address) return null;
  const [row] = await db
    .select()
    .from(clients)
    .where(and(sql`lower(${clients.email}) = ${address}`, standing))
    .orderBy(desc(clients.updated_at))
    .limit(1);
  return row ?? null;
}

export interface ContactMatch {
  client: ClientRow;
  /** what matched: the number (that client's own) or only an e-mail address (often shared in a household) */
  by: "whatsapp" | "email";
}

/** The client a number or e-mail address points to, the number first. Null for a new person. */
export async function matchContact(db: Executor, person: { whatsapp?: string; email?: string }): Promise<ContactMatch | null> {
  const digits = person.whatsapp ? storedNumber(person.whatsapp) : "";
  const address = person.email?.trim().toLowerCase() ?? "";
  if (!digits) return address ? asMatch(await clientByEmail(db, address), "email") : null;
  if (!address) return asMatch(await clientByNumber(db, digits), "whatsapp");
  // One round trip for every order and payment (a new person is the common case): the number's
  // own client first, else the most recently active client with the address (both indexed).
  const byNumber = sql<boolean>`${clients.whatsapp} is not distinct from ${digits}`;
  const [row] = await db
    .select({ client: clients, byNumber })
    .from(clients)
    .where(and(sql`(${clients.whatsapp} = ${digits} or lower(${clients.email}) = ${address})`, standing))
    .orderBy(desc(byNumber), desc(clients.updated_at))
    .limit(1);
  return row ? { client: row.client, by: row.byNumber ? "whatsapp" : "email" } : null;
}

const asMatch = (client: ClientRow | null, by: ContactMatch["by"]): ContactMatch | null => (client ? { client, by } : null);

/**
 * `matchContact` for many people in one round trip (a group commit's batch of orders), answering
 * the client's id and what matched: the same rule — the number's own standing client first, else
 * the most recently active standing client with the address. identity.test.ts holds the two equal.
 */
export async function matchContactIds(
  db: Pick<Db, "execute">,
  people: readonly { whatsapp?: string; email?: string }[],
): Promise<({ clientId: string; by: ContactMatch["by"] } | null)[]> {
  if (people.length === 0) return [];
  const wanted = JSON.stringify(
    people.map((person, i) => ({
      i,
      digits: person.whatsapp ? storedNumber(person.whatsapp) || null : null,
      address: person.email?.trim().toLowerCase() || null,
    })),
  );
  const result = await db.execute(sql`
    SELECT p.i, m.id, m.by_number
    FROM jsonb_to_recordset(${wanted}::jsonb) AS p(i int, digits text, address text)
    JOIN LATERAL (
      SELECT ${clients.id} AS id, ${clients.whatsapp} IS NOT DISTINCT FROM p.digits AS by_number
      FROM ${clients}
      WHERE (${clients.whatsapp} = p.digits OR lower(${clients.email}) = p.address) AND ${standing}
      ORDER BY 2 DESC, ${clients.updated_at} DESC
      LIMIT 1
    ) AS m ON true`);
  const found = new Map(rowsOf<{ i: number; id: string; by_number: boolean }>(result).map((row) => [Number(row.i), row]));
  return people.map((_, i) => {
    const row = found.get(i);
    return row ? { clientId: row.id, by: row.by_number ? "whatsapp" : "email" } : null;
  });
}

export const numberTakenMessage = (holder: Pick<ClientRow, "full_name" | "username">, number: string) =>
  `${formatPhoneForDisplay(number)} is already the WhatsApp number of ${holder.full_name} (${holder.username}). A number belongs to one client.`;

/**
 * Refuses (409 on `whatsapp`, naming the client) a number another standing client has. An
 * admin's create or edit asks this first; the unique index is the last word under a race.
 */
export async function assertNumberFree(db: Executor, number: string, exceptClientId?: string): Promise<void> {
  const digits = storedNumber(number);
  if (!digits) return;
  const [holder] = await db
    .select({ id: clients.id, full_name: clients.full_name, username: clients.username })
    .from(clients)
    .where(and(eq(clients.whatsapp, digits), standing, exceptClientId ? ne(clients.id, exceptClientId) : undefined))
    .limit(1);
  if (holder) {
    const message = numberTakenMessage(holder, digits);
    throw conflict(message, { whatsapp: message });
  }
}
