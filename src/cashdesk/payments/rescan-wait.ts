/**
 * A payment session's wait for the till's new scan (a refused card session):
 * the session asks, an intent under way answers the till as soon as it is
 * asked, and the till's `pay.rescan` (or its giving up) ends the wait.
 */
export class RescanWait {
  #waiting: { resolve(cardSession: string): void; reject(error: unknown): void } | undefined;
  readonly #askedListeners = new Set<() => void>();

  /** Whether the session waits for the till's scan. */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** The session asks: resolves with the new card session, rejects when the till gives up or the payment stops. */
  ask(): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.#waiting = { resolve, reject };
      for (const asked of this.#askedListeners) asked();
    });
  }

  /** Resolves once the session asks (for an intent that answers its till then); `stop` ends the listening. */
  asked(): { promise: Promise<'rescan'>; stop(): void } {
    let asked!: () => void;
    const promise = new Promise<'rescan'>((resolve) => {
      asked = () => resolve('rescan');
    });
    this.#askedListeners.add(asked);
    return { promise, stop: () => this.#askedListeners.delete(asked) };
  }

  /** The till scanned again; false when nothing waited. */
  give(cardSession: string): boolean {
    const waiting = this.#waiting;
    if (waiting === undefined) return false;
    this.#waiting = undefined;
    waiting.resolve(cardSession);
    return true;
  }

  /** The wait ends with `error` (the till gave up, or the payment stops); false when nothing waited. */
  drop(error: unknown): boolean {
    const waiting = this.#waiting;
    if (waiting === undefined) return false;
    this.#waiting = undefined;
    waiting.reject(error);
    return true;
  }
}
