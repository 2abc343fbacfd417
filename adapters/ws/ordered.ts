/** A value now, or a promise of one: what a call answers with when its store may be remote. */
export type MaybePromise<T> = T | PromiseLike<T>;

/**
 * True for anything `await` would wait on. Checked by `then` rather than
 * `instanceof Promise` so a verifier returning another library's promises
 * is still waited on, never serialised as a result.
 */
export function isThenable<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** One answer waiting for the ones before it. */
interface Slot<T> {
  ready: boolean;
  value: T | undefined;
}

/**
 * Hands values to `deliver` in the order they were pushed, whether each was
 * ready at once or arrived later as a promise. A ready value with nothing
 * ahead of it is delivered synchronously, inside `push`, with no promise or
 * microtask; a promise costs one `then` (the chain this replaces cost three
 * promises and four microtasks per frame), and only while one is pending do
 * later values wait in the queue.
 */
export class OrderedDelivery<T> implements Delivery<T> {
  readonly #deliver: (value: T) => void;
  readonly #onRejected: (error: unknown) => T;
  readonly #afterSettle: () => void;
  /** Values not yet delivered, oldest first: the head is a promise still pending. */
  readonly #queue: Array<Slot<T>> = [];
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  /**
   * @param deliver receives each value in push order; it must not throw (a throw is
   *   the caller's bug, and would skip the values behind it in this turn).
   * @param onRejected turns a rejected promise into the value to deliver in its place.
   * @param afterSettle called each time a promise settles, after the values it unblocked
   *   were delivered (the queue got shorter: time to resume reading).
   */
  constructor(deliver: (value: T) => void, onRejected: (error: unknown) => T, afterSettle: () => void) {
    this.#deliver = deliver;
    this.#onRejected = onRejected;
    this.#afterSettle = afterSettle;
  }

  /** Values pushed and not yet delivered. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Delivers `value` now if nothing is ahead of it, else once everything ahead of it has been. */
  push(value: MaybePromise<T>): void {
    if (!isThenable(value)) {
      if (this.#queue.length === 0) this.#deliver(value);
      else this.#queue.push({ ready: true, value });
      return;
    }
    const slot: Slot<T> = { ready: false, value: undefined };
    this.#queue.push(slot);
    // Adopted by a native promise: a foreign thenable that throws in `then` becomes a rejection, not a throw here.
    Promise.resolve(value).then(
      (settled) => this.#settle(slot, settled),
      (error: unknown) => this.#settle(slot, this.#onRejected(error)),
    );
  }

  /** Resolves once every value pushed so far has been delivered. */
  idle(): Promise<void> {
    if (this.#queue.length === 0) return Promise.resolve();
    if (this.#idle === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  #settle(slot: Slot<T>, value: T): void {
    slot.ready = true;
    slot.value = value;
    // Deliver the run of ready values at the head; a pending promise behind them keeps its place.
    while (this.#queue.length > 0 && this.#queue[0]!.ready) {
      this.#deliver(this.#queue.shift()!.value as T);
    }
    this.#afterSettle();
    if (this.#queue.length === 0 && this.#idle !== undefined) {
      this.#idle.resolve();
      this.#idle = undefined;
    }
  }
}

/** Where a connection puts its frames' answers: {@link OrderedDelivery} or {@link PromptDelivery}. */
export interface Delivery<T> {
  /** Values pushed and not yet delivered. */
  readonly pending: number;
  /** Delivers `value` when it is ready (and, for an ordered delivery, everything pushed before it was delivered). */
  push(value: MaybePromise<T>): void;
  /** Resolves once every value pushed so far has been delivered. */
  idle(): Promise<void>;
}

/**
 * Hands each value to `deliver` as soon as it is ready, whatever was pushed
 * before it: JSON-RPC matches answers to calls by id, so a quick call need
 * not wait for a slow one ahead of it (a verification behind a payment that
 * waits on the Pay API). A ready value is delivered inside `push`.
 */
export class PromptDelivery<T> implements Delivery<T> {
  readonly #deliver: (value: T) => void;
  readonly #onRejected: (error: unknown) => T;
  readonly #afterSettle: () => void;
  #pending = 0;
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  /** The same parameters as {@link OrderedDelivery}'s. */
  constructor(deliver: (value: T) => void, onRejected: (error: unknown) => T, afterSettle: () => void) {
    this.#deliver = deliver;
    this.#onRejected = onRejected;
    this.#afterSettle = afterSettle;
  }

  get pending(): number {
    return this.#pending;
  }

  push(value: MaybePromise<T>): void {
    if (!isThenable(value)) {
      this.#deliver(value);
      return;
    }
    this.#pending++;
    Promise.resolve(value).then(
      (settled) => this.#settle(settled),
      (error: unknown) => this.#settle(this.#onRejected(error)),
    );
  }

  idle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    if (this.#idle === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  #settle(value: T): void {
    this.#pending--;
    this.#deliver(value);
    this.#afterSettle();
    if (this.#pending === 0 && this.#idle !== undefined) {
      this.#idle.resolve();
      this.#idle = undefined;
    }
  }
}
