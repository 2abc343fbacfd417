/** Receives change notices; `closed` when the source stops (end the stream). */
export interface TopicFeedListener<T extends string = string> {
  change(topic: T): void;
  closed(): void;
}

/**
 * In-process change notices by topic, published after each committed change.
 * Carries no data: a page told `pay` reads its invoices again. `close()` ends
 * every listener, so server-sent event streams end before the server drains
 * (an endless response would hold its close open).
 */
export class TopicFeed<T extends string = string> {
  readonly #listeners = new Set<TopicFeedListener<T>>();
  #closed = false;

  /** Adds a listener; returns the unsubscribe. A listener added after close is told `closed` at once. */
  subscribe(listener: TopicFeedListener<T>): () => void {
    if (this.#closed) {
      listener.closed();
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one that throws does not keep the others from hearing it. */
  publish(topic: T): void {
    for (const listener of this.#listeners) {
      try {
        listener.change(topic);
      } catch {
        // a page's stream that broke is its own problem
      }
    }
  }

  /** Ends every listener (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners) {
      try {
        listener.closed();
      } catch {
        // see publish
      }
    }
    this.#listeners.clear();
  }

  /** Listeners now (a sampler can rest while nobody listens). */
  get listeners(): number {
    return this.#listeners.size;
  }

  get closedDown(): boolean {
    return this.#closed;
  }
}
