// In-memory read cache for public reads. Entries name the tables they depend on; the change
// feed invalidates by table, so a write anywhere (this process or another) refreshes reads.
export class ReadCache {
  private entries = new Map<string, { tables: readonly string[]; value: Promise<unknown> }>();

  /** Cached value for key, loading it once; concurrent callers share one load. */
  get<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit.value as Promise<T>;
    const value = load();
    const entry = { tables, value };
    this.entries.set(key, entry);
    // A failed load must not stay cached.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  invalidateTable(table: string): void {
    for (const [key, entry] of this.entries) if (entry.tables.includes(table)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
