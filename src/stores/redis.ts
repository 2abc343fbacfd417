import { Redis, type RedisOptions } from 'ioredis';
import { StoreError } from '../errors.js';
import type { AsyncStore } from './store.js';

/** Options of {@link RedisStore}: give a `client` you own, or a `url` for one the store owns. */
export interface RedisStoreOptions {
  /** An ioredis client; the store does not close it. */
  client?: Redis;
  /** `redis://host:port/db`; the store opens and closes its own client. */
  url?: string;
  /** Namespace of every key. Default `wpk:`. */
  keyPrefix?: string;
  /** Extra ioredis options for a client opened from `url`. */
  redisOptions?: RedisOptions;
}

/**
 * Redis-backed store, shared by every verifier of a chain: replay marks are
 * `SET NX PX` (or a script doing the same and returning the mark's owner),
 * failure counters `INCR` + `PEXPIRE` in one transaction; separate keys, each
 * with its TTL. Redis must not evict them (`maxmemory-policy noeviction`) and
 * should persist them (`appendonly yes`): see the README.
 *
 * @example
 * const store = new RedisStore({ url: process.env.REDIS_URL });
 * const verifier = createVerifier({ ...config, replay: store }); // barcodeVerify now returns a Promise
 */
export class RedisStore implements AsyncStore {
  readonly synchronous = false;
  readonly client: Redis;
  readonly #owned: boolean;
  readonly #prefix: string;

  constructor(options: RedisStoreOptions) {
    if (options.client !== undefined) {
      this.client = options.client;
      this.#owned = false;
    } else if (options.url !== undefined) {
      // Fail fast rather than queue verifications behind a Redis that is down.
      this.client = new Redis(options.url, { maxRetriesPerRequest: 1, commandTimeout: 2000, ...options.redisOptions });
      // Connection errors reach callers as StoreError on their commands; without
      // a listener ioredis would also print each reconnect failure to stderr.
      this.client.on('error', () => {});
      this.#owned = true;
    } else {
      throw new TypeError('RedisStore needs a client or a url');
    }
    this.#prefix = options.keyPrefix ?? 'wpk:';
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const answer = await this.#run(() => this.client.set(this.#prefix + key, '', 'PX', pxOf(ttlMs), 'NX'));
    return answer === 'OK';
  }

  async claimFor(key: string, ttlMs: number, owner: string): Promise<true | string> {
    // A script rather than `SET NX GET` (Redis 7 and later only): atomic on every Redis version.
    const answer = await this.#run(() => this.client.eval(CLAIM_FOR, 1, this.#prefix + key, owner, pxOf(ttlMs)));
    return answer === null ? true : String(answer);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const k = this.#prefix + key;
    const replies = await this.#run(() => this.client.multi().incr(k).pexpire(k, pxOf(ttlMs)).exec());
    const [error, count] = replies?.[0] ?? [new Error('transaction discarded'), 0];
    if (error) throw new StoreError('Redis store failed: INCR refused', { cause: error });
    return Number(count);
  }

  async count(key: string): Promise<number> {
    const value = await this.#run(() => this.client.get(this.#prefix + key));
    return value === null ? 0 : Number(value);
  }

  async delete(key: string): Promise<void> {
    await this.#run(() => this.client.del(this.#prefix + key));
  }

  /** One `PING` round trip: resolves when Redis answered, else rejects with StoreError (for health checks). */
  async ping(): Promise<void> {
    await this.#run(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.#owned) await this.client.quit().catch(() => this.client.disconnect());
  }

  async #run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new StoreError('Redis store unavailable', { cause: error });
    }
  }
}

/** Records KEYS[1] = ARGV[1] for ARGV[2] ms unless present; nil when recorded, else the value there. */
const CLAIM_FOR = `local old = redis.call('GET', KEYS[1])
if old then return old end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

function pxOf(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}
