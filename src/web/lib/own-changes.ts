// Changes this visitor caused themselves (counting their own download). The change feed announces
// them like anyone else's, and their data refetches as usual, but 'Data Updated' is news about
// changes made elsewhere: telling someone that the page changed because they clicked is noise.

/** How long after the visitor's own write its echo on the change feed is expected. */
export const OWN_CHANGE_WINDOW_MS = 15_000;

const own = new Map<string, number>();
const keyOf = (table: string, id: string | null) => `${table}:${id ?? ""}`;

/** Call before the write: its echo may arrive before the write's own answer does. */
export function markOwnChange(table: string, id: string, now = Date.now()): void {
  own.set(keyOf(table, id), now + OWN_CHANGE_WINDOW_MS);
}

/** Whether this change is the echo of one the visitor made in the last few seconds. */
export function isOwnChange(change: { table: string; id: string | null }, now = Date.now()): boolean {
  const key = keyOf(change.table, change.id);
  const until = own.get(key);
  if (until === undefined) return false;
  if (now > until) {
    own.delete(key);
    return false;
  }
  return true;
}
