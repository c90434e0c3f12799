// Portal usernames made from a person's name: 'Thabo Mokoena' → 'thabo.m', then 'thabo.m2',
// 'thabo.m3' when taken. Lower-case ASCII, so it is easy to type on any phone.
import { eq, like, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { clients } from "@/server/db/schema";

const FALLBACK = "client";

/** 'Thabo Mokoena' → 'thabo.m'; 'Zoë' → 'zoe'; a name with no letters → 'client'. */
export function baseUsername(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  if (words.length === 0) return FALLBACK;
  const first = words[0].slice(0, 30);
  const base = words.length > 1 ? `${first}.${words[words.length - 1][0]}` : first;
  // Usernames are at least 3 characters ('al' → 'al1' would read oddly; pad with the fallback).
  return base.length >= 3 ? base : `${base}.${FALLBACK}`.slice(0, 30);
}

/** The base itself when free, else the base with the lowest free number from 2. */
export async function nextFreeUsername(db: Pick<Db, "select">, base: string): Promise<string> {
  const rows = await db
    .select({ username: clients.username })
    .from(clients)
    .where(or(eq(clients.username, base), like(clients.username, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)));
  const taken = new Set(rows.map((r) => r.username));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}
