/** Told each value a {@link Feed} publishes, and `closed` once when it closes. */
export interface FeedListener<T> {
  next(value: T): void;
  closed?(): void;
}

/**
 * In-process publish/subscribe, the one the kit's change feeds are built on
 * (the sandbox's and the console's topic notices, Pay transaction updates,
 * the updates of a till's payments). A listener that throws is skipped: one
 * broken listener (a page's stream, a till's connection) must not starve the
 * others. `close()` ends every listener, so a stream built on it can end.
 *
 * @example
 * const feed = new Feed<string>();
 * const off = feed.subscribe({ next: (topic) => console.log(topic) });
 * feed.publish('pay');
 * off();
 */
export class Feed<T, L extends FeedListener<T> = FeedListener<T>> {
  readonly #listeners = new Set<L>();
  #closed = false;

  /** Adds a listener; returns the unsubscribe. A listener added after close is told `closed` at once. */
  subscribe(listener: L): () => void {
    if (this.#closed) {
      listener.closed?.();
      return () => {};
    }
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Tells every listener, in the order they subscribed. */
  publish(value: T): void {
    for (const listener of this.#listeners) {
      try {
        listener.next(value);
      } catch {
        // the listener's own failure: the others still hear it
      }
    }
  }

  /** Ends every listener (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners) {
      try {
        listener.closed?.();
      } catch {
        // see publish
      }
    }
    this.#listeners.clear();
  }

  /** The listeners now, in the order they subscribed. */
  listeners(): IterableIterator<L> {
    return this.#listeners.values();
  }

  /** How many listen now (a sampler can rest while nobody listens). */
  get size(): number {
    return this.#listeners.size;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }
}
