import type { SyncStore } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Most entries kept; past it the oldest go first. Default 1,000,000 (about 150 MB at worst). */
  maxEntries?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/**
 * In-process store, bounded in memory: entries expire with their TTL and are
 * swept in amortised constant time; past `maxEntries` the oldest are evicted.
 *
 * @example
 * const verifier = createVerifier({ ...config, replay: new MemoryStore({ maxEntries: 100_000 }) });
 */
export class MemoryStore implements SyncStore {
  readonly synchronous = true;
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #clock: () => number;
  #writesSinceSweep = 0;
  #sizeAfterSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 1_000_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('maxEntries: must be a positive integer');
    }
    this.#maxEntries = maxEntries;
    this.#clock = options.clock ?? Date.now;
  }

  /** Number of entries held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  claim(key: string, ttlMs: number): boolean {
    const now = this.#clock();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > now) return false;
    this.#write(key, { count: 1, expiresAt: now + ttlMs }, now);
    return true;
  }

  increment(key: string, ttlMs: number): number {
    const now = this.#clock();
    const entry = this.#entries.get(key);
    const count = entry !== undefined && entry.expiresAt > now ? entry.count + 1 : 1;
    this.#write(key, { count, expiresAt: now + ttlMs }, now);
    return count;
  }

  count(key: string): number {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt > this.#clock() ? entry.count : 0;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  close(): void {
    this.#entries.clear();
  }

  #write(key: string, entry: Entry, now: number): void {
    // Delete first so the map's insertion order stays "least recently written first".
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // Sweep once the writes since the last sweep match what it left: each sweep
    // then pays for itself, and expired entries never outnumber live ones by much.
    if (++this.#writesSinceSweep >= Math.max(1024, this.#sizeAfterSweep)) this.#sweep(now);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  #sweep(now: number): void {
    this.#writesSinceSweep = 0;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    this.#sizeAfterSweep = this.#entries.size;
  }
}
