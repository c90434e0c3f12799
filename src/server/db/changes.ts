// The change feed: row triggers call pg_notify('table_changes', {table, op, id}); this
// process LISTENs and re-publishes each change on an in-process bus.
import { EventEmitter } from "node:events";
import { CHANGE_CHANNEL, type Database } from "./client";

export interface Change {
  table: string;
  op: "INSERT" | "UPDATE" | "DELETE";
  id: string | null;
}

export class ChangeBus extends EventEmitter {
  private unlisten: (() => Promise<void>) | null = null;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  async start(database: Database): Promise<void> {
    this.unlisten = await database.listen(
      CHANGE_CHANNEL,
      (payload) => {
        const change = parseChange(payload);
        if (change) this.emit("change", change);
      },
      () => this.emit("resync"),
    );
  }

  /** Runs when changes may have been missed (the LISTEN connection was lost and is back). */
  onResync(listener: () => void): () => void {
    this.on("resync", listener);
    return () => this.off("resync", listener);
  }

  onChange(listener: (change: Change) => void): () => void {
    this.on("change", listener);
    return () => this.off("change", listener);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.removeAllListeners();
  }
}

export function parseChange(payload: string): Change | null {
  try {
    const value = JSON.parse(payload) as Partial<Change>;
    if (typeof value.table !== "string" || typeof value.op !== "string") return null;
    return { table: value.table, op: value.op as Change["op"], id: typeof value.id === "string" ? value.id : null };
  } catch {
    return null;
  }
}
