// The loop of a background worker (the outbox worker, the provisioning worker): a pass on a timer
// and whenever asked, one at a time; asked while one runs, it runs one more after it, however
// often it was asked meanwhile.

export class PassLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  /**
   * @param run one pass; a failure is the pass's own to report (it is swallowed here)
   * @param onlyWhileStarted asking before start or after stop runs nothing (else a pass runs when asked)
   */
  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onlyWhileStarted = false,
  ) {}

  /** Passes every intervalMs from now on (the timer does not hold the process open), the first at once. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.request(), this.intervalMs);
    this.timer.unref();
    this.request();
  }

  get started(): boolean {
    return this.timer !== null;
  }

  /** No more timed passes; resolves once the pass under way, if any, has finished. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.settled();
  }

  /** A pass now, or one more after the pass under way. */
  request(): void {
    if (this.onlyWhileStarted && !this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }

  /** Resolves once the pass under way, if any, has finished. */
  async settled(): Promise<void> {
    await this.running;
  }
}
