/**
 * Makes a call idempotent by key: callers with a key already in flight share
 * its promise (so concurrent repeats run the handler once), and a successful
 * answer is replayed for `ttlMs`. Failures are not kept: a repeat tries again.
 */
export interface IdempotencyCache {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** Options of {@link MemoryIdempotencyCache}. */
export interface MemoryIdempotencyOptions {
  /** Answers kept at most; the oldest go first. Default 10,000. */
  maxEntries?: number;
  /** How long an answer is replayed. Default 24 h. */
  ttlMs?: number;
  /** Now, in ms. Default `Date.now`. */
  clock?: () => number;
}

/**
 * The in-process {@link IdempotencyCache}. It spares the handler repeated work
 * in one process; a handler that must hold across restarts and several servers
 * enforces it in its own store as well (the default implementation does, with a
 * unique `request_id`).
 *
 * @example
 * createLoyaltyServer({ handlers, auth, idempotency: new MemoryIdempotencyCache({ ttlMs: 3_600_000 }) });
 */
export class MemoryIdempotencyCache implements IdempotencyCache {
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #done = new Map<string, { value: unknown; until: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #clock: () => number;

  constructor({ maxEntries = 10_000, ttlMs = 24 * 3600 * 1000, clock = Date.now }: MemoryIdempotencyOptions = {}) {
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
    this.#clock = clock;
  }

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const done = this.#done.get(key);
    if (done !== undefined) {
      if (done.until > this.#clock()) return Promise.resolve(structuredClone(done.value) as T);
      this.#done.delete(key);
    }
    const pending = this.#inFlight.get(key);
    if (pending !== undefined) return pending.then((value) => structuredClone(value) as T);
    const started = (async () => fn())();
    this.#inFlight.set(key, started);
    started
      .then(
        (value) => {
          this.#done.set(key, { value: structuredClone(value), until: this.#clock() + this.#ttlMs });
          while (this.#done.size > this.#maxEntries) this.#done.delete(this.#done.keys().next().value!);
        },
        () => {},
      )
      .finally(() => this.#inFlight.delete(key));
    return started;
  }
}
