/**
 * A background worker over a table of due rows (the webhook outbox, the
 * callback dispatcher): `run` drains what is due; it runs every `pollMs`,
 * and at once on `kick()`, never twice at a time (a kick during a run
 * coalesces into one more run right after it).
 */
export class Poller {
  readonly #run: () => Promise<void>;
  readonly #pollMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(run: () => Promise<void>, pollMs: number, onError: (error: unknown) => void) {
    this.#run = run;
    this.#pollMs = pollMs;
    this.#onError = onError;
  }

  /** True until `start()` and after `stop()`: a long run checks it between steps. */
  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.kick(), this.#pollMs);
    this.#timer.unref();
    this.kick();
  }

  /** Runs now, or once more right after the run under way. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#run()
      .catch(this.#onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Stops polling and waits for the run under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}
