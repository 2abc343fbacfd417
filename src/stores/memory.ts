import { StoreError } from '../errors.js';
import type { SyncStore } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most live replay marks (`claim`, `claimFor`). Never evicted before they
   * expire: when full, a new claim throws `StoreError` (STORE_UNAVAILABLE)
   * rather than forget a used barcode. Default 1,000,000 (about 350 MB when
   * full of marks with till ids, 220 MB without).
   */
  maxReplayMarks?: number;
  /** Most failure counters (`increment`); past it the least recently written go first. Default 1,000,000. */
  maxFailureCounters?: number;
  /** @deprecated Sets both budgets at once; prefer `maxReplayMarks` and `maxFailureCounters`. */
  maxEntries?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
}

interface Counter {
  count: number;
  expiresAt: number;
}

interface Mark {
  expiresAt: number;
  owner: string;
}

/** A map of entries with an expiry; the store decides when to sweep it. */
class ExpiringTable<E extends { expiresAt: number }> {
  readonly entries = new Map<string, E>();
  /** No entry expires before this: a sweep earlier than it would find nothing. */
  #earliestExpiry = Number.POSITIVE_INFINITY;

  live(key: string, now: number): E | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAt > now ? entry : undefined;
  }

  /**
   * Writes `entry` at `key`; `present` says whether the key holds an entry, live or expired (the caller has just
   * looked).
   */
  write(key: string, entry: E, present: boolean): void {
    // Delete first so the map's insertion order stays "least recently written first"; a new key needs no delete.
    if (present) this.entries.delete(key);
    this.entries.set(key, entry);
    if (entry.expiresAt < this.#earliestExpiry) this.#earliestExpiry = entry.expiresAt;
  }

  /** Drops expired entries; free when nothing can have expired yet. */
  sweep(now: number): void {
    if (now < this.#earliestExpiry) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
      else if (entry.expiresAt < earliest) earliest = entry.expiresAt;
    }
    this.#earliestExpiry = earliest;
  }
}

/**
 * In-process store, bounded in memory, with separate budgets: failure
 * counters (which anyone can create with made-up card numbers) are shed
 * least recently written first past `maxFailureCounters`; replay marks (which
 * exist only for valid passwords) are never shed before they expire, and past
 * `maxReplayMarks` live ones a new mark is refused with `StoreError`, so a
 * flood of counters can never make a used barcode valid again.
 *
 * @example
 * const verifier = createVerifier({ ...config, replay: new MemoryStore({ maxReplayMarks: 100_000 }) });
 */
export class MemoryStore implements SyncStore {
  readonly synchronous = true;
  readonly #marks = new ExpiringTable<Mark>();
  readonly #counters = new ExpiringTable<Counter>();
  readonly #maxMarks: number;
  readonly #maxCounters: number;
  readonly #clock: () => number;
  #writesSinceSweep = 0;
  #sizeAfterSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxMarks = budget(options, 'maxReplayMarks');
    this.#maxCounters = budget(options, 'maxFailureCounters');
    this.#clock = options.clock ?? Date.now;
  }

  /** Number of entries held (marks and counters), expired ones not yet swept included. */
  get size(): number {
    return this.#marks.entries.size + this.#counters.entries.size;
  }

  /** Replay marks held, expired ones not yet swept included. */
  get replayMarks(): number {
    return this.#marks.entries.size;
  }

  /** Failure counters held, expired ones not yet swept included. */
  get failureCounters(): number {
    return this.#counters.entries.size;
  }

  claim(key: string, ttlMs: number): boolean {
    return this.claimFor(key, ttlMs, '') === true;
  }

  claimFor(key: string, ttlMs: number, owner: string): true | string {
    const now = this.#clock();
    const marks = this.#marks;
    // One look-up serves the replay check, the budget check and the write (a claim is on every valid scan).
    const mark = marks.entries.get(key);
    if (mark !== undefined && mark.expiresAt > now) return mark.owner;
    if (mark === undefined && marks.entries.size >= this.#maxMarks) {
      marks.sweep(now);
      if (marks.entries.size >= this.#maxMarks) {
        throw new StoreError(
          `replay mark budget full (${this.#maxMarks} live marks): refusing rather than forgetting a used barcode`,
        );
      }
    }
    marks.write(key, { expiresAt: now + ttlMs, owner }, mark !== undefined);
    this.#wrote(now);
    return true;
  }

  increment(key: string, ttlMs: number): number {
    const now = this.#clock();
    const counters = this.#counters;
    const present = counters.entries.get(key);
    const entry = present !== undefined && present.expiresAt > now ? present : undefined;
    counters.write(
      key,
      { count: entry === undefined ? 1 : entry.count + 1, expiresAt: now + ttlMs },
      present !== undefined,
    );
    this.#wrote(now);
    while (counters.entries.size > this.#maxCounters) {
      counters.entries.delete(counters.entries.keys().next().value as string);
    }
    return entry === undefined ? 1 : entry.count + 1;
  }

  count(key: string): number {
    return this.#counters.live(key, this.#clock())?.count ?? 0;
  }

  delete(key: string): void {
    this.#counters.entries.delete(key);
    this.#marks.entries.delete(key);
  }

  close(): void {
    this.#counters.entries.clear();
    this.#marks.entries.clear();
  }

  /**
   * Sweeps both tables once the writes since the last sweep match what it
   * left: each sweep then pays for itself, and expired entries never
   * outnumber live ones by much, whichever kind is being written.
   */
  #wrote(now: number): void {
    if (++this.#writesSinceSweep < Math.max(1024, this.#sizeAfterSweep)) return;
    this.#writesSinceSweep = 0;
    this.#marks.sweep(now);
    this.#counters.sweep(now);
    this.#sizeAfterSweep = this.size;
  }
}

function budget(options: MemoryStoreOptions, name: 'maxReplayMarks' | 'maxFailureCounters'): number {
  const field = options[name] !== undefined ? name : options.maxEntries !== undefined ? 'maxEntries' : undefined;
  const n = field === undefined ? 1_000_000 : options[field]!;
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`${field}: must be a positive integer`);
  return n;
}
