// Where the JSON log lines go: standard output, gathered per turn of the event loop. pino writes
// each line with its own write; standard output to a pipe or file (systemd's journal, a log file)
// is synchronous in Node, so at thousands of requests a second the one access line per request
// cost more than half the throughput of a cached read. Lines written during one turn leave in
// one write right after it (or at 64 KB), in order: an operator loses nothing and sees each
// line within a millisecond or so. What is still gathered when the process exits — even after
// an uncaught error — is written out synchronously first.

const MAX_PENDING_BYTES = 64 * 1024;

interface Sink {
  write(text: string): unknown;
}

const open = new Set<LogBuffer>();
let exitHooked = false;

export class LogBuffer {
  private pending: string[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor(private readonly out: Sink = process.stdout) {
    open.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on("exit", () => {
        for (const buffer of open) buffer.flush();
      });
    }
  }

  /** pino's destination: one serialised line. */
  write(line: string): boolean {
    this.pending.push(line);
    this.bytes += line.length;
    if (this.bytes >= MAX_PENDING_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return true;
  }

  /** Write what is gathered now, in one write. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join("");
    this.pending = [];
    this.bytes = 0;
    this.out.write(text);
  }

  /** Flush and stop (the app closed): later lines go straight out. */
  close(): void {
    this.flush();
    open.delete(this);
  }
}
