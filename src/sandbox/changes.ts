/** What changed in the sandbox: the wallet app's and the merchant console's pages fetch that part again. */
export type SandboxTopic = 'pay' | 'push' | 'webhooks' | 'loyalty';

/** Receives the sandbox's change notices; `closed` when the sandbox stops (end the stream). */
export interface ChangeListener {
  change(topic: SandboxTopic): void;
  closed(): void;
}

/**
 * The sandbox's in-process change notices, published after each committed
 * change (a Pay write, a Push message moved or read, a webhook attempt, a
 * Loyalty call). Carries no data: a page told `pay` reads its invoices again.
 * `close()` ends every listener, so server-sent event streams end before the
 * server drains (an endless response would hold its close open).
 */
export class ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();
  #closed = false;

  /** Adds a listener; returns the unsubscribe. A listener added after close is told `closed` at once. */
  subscribe(listener: ChangeListener): () => void {
    if (this.#closed) {
      listener.closed();
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one that throws does not keep the others from hearing it. */
  publish(topic: SandboxTopic): void {
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

  get closedDown(): boolean {
    return this.#closed;
  }
}
