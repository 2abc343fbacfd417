/** A failure budget: past `maxFailures` failures within `windowMs`, locked out for `lockoutMs`. */
export interface FailureBudget {
  /** Failures allowed within the window; the attempt after the last of them is refused. */
  maxFailures: number;
  /** Milliseconds, counted from the first failure of the window. */
  windowMs: number;
  /** Milliseconds the lockout lasts. Default: `windowMs`. */
  lockoutMs?: number;
}

interface Entry {
  failures: number;
  windowEnds: number;
  lockedUntil: number;
}

/** One budget's counts in this process, bounded: least recently written shed first. */
export class Budget {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #lockoutMs: number;
  /** No lock of this budget lasts past this: before it, `lockedFor` may look; after, nothing is locked. */
  lockedUntilMax = 0;

  constructor(
    readonly budget: Required<FailureBudget>,
    max: number,
  ) {
    this.#max = max;
    this.#lockoutMs = budget.lockoutMs;
  }

  /** Milliseconds `key` stays locked, 0 when it is not. */
  lockedFor(key: string, now: number): number {
    if (now >= this.lockedUntilMax) return 0;
    const entry = this.#entries.get(key);
    return entry === undefined ? 0 : Math.max(0, entry.lockedUntil - now);
  }

  /** Failures of `key` counted in its current window (0 once the window is over or after a lockout began). */
  failures(key: string, now: number): number {
    const entry = this.#entries.get(key);
    return entry === undefined || now >= entry.windowEnds ? 0 : entry.failures;
  }

  /** Counts a failure; true when it spends the budget and a lockout begins. */
  fail(key: string, now: number): boolean {
    let entry = this.#entries.get(key);
    if (entry === undefined || now >= entry.windowEnds) {
      entry = { failures: 0, windowEnds: now + this.budget.windowMs, lockedUntil: 0 };
    }
    entry.failures++;
    const locks = entry.failures >= this.budget.maxFailures;
    if (locks) this.#lock(entry, now + this.#lockoutMs);
    this.#write(key, entry);
    return locks;
  }

  /**
   * Locks `key` until `until` (a lockout another instance began, or one the
   * shared count says this failure began); true when it was not locked at `now`.
   */
  lock(key: string, until: number, now: number): boolean {
    const entry = this.#entries.get(key) ?? { failures: 0, windowEnds: 0, lockedUntil: 0 };
    const wasLocked = entry.lockedUntil > now;
    if (until > entry.lockedUntil) this.#lock(entry, until);
    this.#write(key, entry);
    return !wasLocked;
  }

  /** Starts `key`'s count again, unless it is locked: a lock runs its course. */
  reset(key: string, now: number): void {
    if (this.lockedFor(key, now) === 0) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #lock(entry: Entry, until: number): void {
    entry.lockedUntil = until;
    // A fresh window once the lockout is over.
    entry.failures = 0;
    entry.windowEnds = until;
    this.lockedUntilMax = Math.max(this.lockedUntilMax, until);
  }

  #write(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
