/**
 * Typed listeners for a discriminated union of events: `on(type, fn)` and one
 * catch-all. A listener that throws is skipped, never breaking the emitter:
 * a UI's bug must not break a payment.
 */
export class Listeners<E extends { type: string }> {
  readonly #byType = new Map<string, Set<(event: never) => void>>();
  readonly #all: ((event: E) => void) | undefined;

  constructor(all?: (event: E) => void) {
    this.#all = all;
  }

  /** Listens to one type; returns the unsubscribe. */
  on<T extends E['type']>(type: T, listener: (event: Extract<E, { type: T }>) => void): () => void {
    let set = this.#byType.get(type);
    if (set === undefined) {
      set = new Set();
      this.#byType.set(type, set);
    }
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** Hands the event to the catch-all, then to the type's listeners. */
  emit(event: E): void {
    const listeners = [this.#all, ...(this.#byType.get(event.type) ?? [])] as Array<((e: E) => void) | undefined>;
    for (const listener of listeners) {
      try {
        listener?.(event);
      } catch {
        // see above
      }
    }
  }
}
