/**
 * Where a verifier keeps replay marks and failure counters. One store can be
 * shared by every verifier of a chain (Redis) or kept in-process (memory).
 */
interface StoreOperations<Bool, Num, Done> {
  /** Records `key` for `ttlMs` unless it is already there (SET NX PX); true when this call recorded it. */
  claim(key: string, ttlMs: number): Bool;
  /** Adds one to the counter at `key` and (re)sets its life to `ttlMs`; returns the new count. */
  increment(key: string, ttlMs: number): Num;
  /** The counter at `key`; 0 when absent or expired. */
  count(key: string): Num;
  /** Forgets `key`. */
  delete(key: string): Done;
  /** Releases what the store holds (connections it opened, timers). */
  close(): Done;
}

/** A store answering synchronously; a verifier over it verifies synchronously. */
export interface SyncStore extends StoreOperations<boolean, number, void> {
  readonly synchronous: true;
}

/** A store answering with promises; a verifier over it returns promises. */
export interface AsyncStore extends StoreOperations<Promise<boolean>, Promise<number>, Promise<void>> {
  readonly synchronous: false;
}

/** Either kind of store. */
export type VerificationStore = SyncStore | AsyncStore;
