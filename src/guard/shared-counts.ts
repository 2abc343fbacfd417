import type { FailureBudget } from './budget.js';

/** What one failure counted in a shared store led to. */
export interface SharedFailure {
  /** True when this failure spent the budget: the lockout began here (log it once, count it). */
  began: boolean;
  /** Milliseconds the key stays locked, 0 when it is not locked. */
  lockedForMs: number;
}

/**
 * Failure counts shared by every instance of a server (Redis:
 * `RedisFailureCounts`), so a budget holds for the cluster, not per process.
 * A `FailureLimiter` keeps counting in process as well: its answers never
 * wait for the store, and while the store is unreachable its own counts are
 * what holds.
 */
export interface SharedFailureCounts {
  /**
   * Counts one failure of `key` under `budget` for the whole cluster, atomically;
   * rejects when the store is unreachable (the caller then counts in process only).
   */
  fail(key: string, budget: Required<FailureBudget>): Promise<SharedFailure>;
  /** Calls `listener` with each lockout any instance begins (its key, the ms it lasts), until closed. */
  onLocked(listener: (key: string, lockedForMs: number) => void): void;
}
