import { Feed } from '../../src/feed/feed.js';

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
  readonly #feed = new Feed<T>();

  /** Adds a listener; returns the unsubscribe. A listener added after close is told `closed` at once. */
  subscribe(listener: TopicFeedListener<T>): () => void {
    return this.#feed.subscribe({ next: (topic) => listener.change(topic), closed: () => listener.closed() });
  }

  /** Tells every listener; one that throws does not keep the others from hearing it. */
  publish(topic: T): void {
    this.#feed.publish(topic);
  }

  /** Ends every listener (idempotent). */
  close(): void {
    this.#feed.close();
  }

  /** Listeners now (a sampler can rest while nobody listens). */
  get listeners(): number {
    return this.#feed.size;
  }

  get closedDown(): boolean {
    return this.#feed.closed;
  }
}
