/**
 * Where a verifier keeps replay marks and failure counters. One store can be
 * shared by every verifier of a chain (Redis) or kept in-process (memory).
 */
interface StoreOperations<Bool, Num, Done, Claimed> {
  /**
   * Records the replay mark `key` for `ttlMs` unless it is already there (SET NX PX); true when this call recorded it.
   */
  claim(key: string, ttlMs: number): Bool;
  /**
   * `claim` with an owner kept in the mark: true when this call recorded it,
   * else the owner of the mark already there (`''` for one made by `claim`).
   * Lets a verifier tell a requester's retry from someone else's replay.
   * Optional for stores of your own: without it, a retry is REPLAYED like any reuse.
   */
  claimFor?(key: string, ttlMs: number, owner: string): Claimed;
  /** Adds one to the failure counter at `key` and (re)sets its life to `ttlMs`; returns the new count. */
  increment(key: string, ttlMs: number): Num;
  /** The counter at `key`; 0 when absent or expired. */
  count(key: string): Num;
  /** Forgets `key`. */
  delete(key: string): Done;
  /** Releases what the store holds (connections it opened, timers). */
  close(): Done;
}

/** A store answering synchronously; a verifier over it verifies synchronously. */
export interface SyncStore extends StoreOperations<boolean, number, void, true | string> {
  readonly synchronous: true;
}

/** A store answering with promises; a verifier over it returns promises. */
export interface AsyncStore
  extends StoreOperations<Promise<boolean>, Promise<number>, Promise<void>, Promise<true | string>> {
  readonly synchronous: false;
}

/** Either kind of store. */
export type VerificationStore = SyncStore | AsyncStore;
