// Group commit (docs/decisions/012-group-commit-for-orders.md): work that arrives while a write
// is in flight waits for it, then goes to the database together, in one transaction. Nothing
// waits on a timer: a lone item is written at once, exactly as it would be on its own, and only
// under load do items share a write. One write at a time per process, so a batch is everything
// that arrived during the previous one (up to `maxBatch`).

export class GroupCommit<Item, Result> {
  private readonly waiting: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private writing = false;
  /** items of the batch being written */
  private inFlight = 0;

  /**
   * @param write writes the items together and answers one result for each, in their order; if
   *   it throws, every item of that batch is refused with its error (and later batches go on).
   */
  constructor(
    private readonly write: (items: readonly Item[]) => Promise<readonly Result[]>,
    private readonly maxBatch = 64,
  ) {}

  /** Items submitted and not yet answered: the batch being written and those waiting for the next. */
  get pending(): number {
    return this.inFlight + this.waiting.length;
  }

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        this.inFlight = batch.length;
        try {
          const results = await this.write(batch.map((entry) => entry.item));
          if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
          for (const [index, entry] of batch.entries()) entry.resolve(results[index]);
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        } finally {
          this.inFlight = 0;
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
