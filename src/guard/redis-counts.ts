import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { StoreError } from '../errors.js';
import type { FailureBudget } from './budget.js';
import type { SharedFailure, SharedFailureCounts } from './shared-counts.js';

/** Options of {@link RedisFailureCounts}. */
export interface RedisFailureCountsOptions {
  /** The client its commands go through (e.g. a `RedisStore`'s); not closed by `close()`. */
  client: Redis;
  /** Namespace of every key and of the channel. Default `wpk:`. */
  keyPrefix?: string;
  /** Which limiter's counts these are, within the namespace. Default `till-keys`. */
  name?: string;
  /** Where the one line per change of reachability goes. Default: none. */
  logger?: Logger;
}

/**
 * Counts one failure of an address, atomically: while the lock key lives, only
 * its time left; else INCR the count (its life set by the first failure of the
 * window), and at the budget swap the count for a lock and tell every
 * instance on the channel. Both keys carry their TTL, so nothing outlives a
 * window or a lockout. Returns { began, lockedForMs }.
 * KEYS: count, lock. ARGV: maxFailures, windowMs, lockoutMs, channel, message.
 */
const FAIL_SCRIPT = `local left = redis.call('PTTL', KEYS[2])
if left > 0 then return {0, left} end
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n < tonumber(ARGV[1]) then return {0, 0} end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return {1, tonumber(ARGV[3])}`;

/** The command `defineCommand` adds to the client: EVALSHA, falling back to EVAL once per connection. */
interface WithFailScript {
  wpkCountFailure(
    count: string,
    lock: string,
    max: number,
    windowMs: number,
    lockoutMs: number,
    channel: string,
    message: string,
  ): Promise<[number, number]>;
}

/**
 * {@link SharedFailureCounts} in Redis: the wrong-key counts of every
 * instance of the cash desk server on one Redis. Keys
 * `<prefix>guard:<name>:{<address>}:count` and `...:lock` (the braces keep
 * both in one cluster slot), each expiring with its window or lockout; a
 * lockout is published on `<prefix>guard:<name>:locked:db<n>` to a second
 * connection of each instance, so the others refuse that address too
 * without asking Redis on every request.
 *
 * It never makes a request wait or fail: a command that cannot reach Redis
 * rejects (the limiter then counts in process), and one warning says so,
 * one info line when Redis answers again.
 *
 * @example
 * const counts = new RedisFailureCounts({ client: store.client, logger });
 * const limiter = new FailureLimiter({ shared: counts });
 */
export class RedisFailureCounts implements SharedFailureCounts {
  readonly #client: Redis & WithFailScript;
  readonly #subscriber: Redis;
  readonly #base: string;
  readonly #channel: string;
  readonly #log: Logger | undefined;
  readonly #listeners: Array<(key: string, lockedForMs: number) => void> = [];
  readonly #subscribed: Promise<void>;
  #reachable = true;
  #closed = false;

  constructor(options: RedisFailureCountsOptions) {
    this.#base = `${options.keyPrefix ?? 'wpk:'}guard:${options.name ?? 'till-keys'}:`;
    // Channels, unlike keys, are shared by every database of a Redis server: the name says which one.
    this.#channel = `${this.#base}locked:db${options.client.options.db ?? 0}`;
    this.#log = options.logger;
    const client = options.client as Redis & Partial<WithFailScript>;
    if (client.wpkCountFailure === undefined) {
      client.defineCommand('wpkCountFailure', { numberOfKeys: 2, lua: FAIL_SCRIPT });
    }
    this.#client = client as Redis & WithFailScript;
    // A subscribed connection can run nothing else. It waits for Redis as long as it takes (no per-command
    // timeout), and ioredis subscribes it again after each reconnection.
    this.#subscriber = options.client.duplicate({
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      enableOfflineQueue: true,
    });
    this.#subscriber.on('error', () => {});
    this.#subscriber.on('message', (channel: string, message: string) => this.#heard(channel, message));
    this.#subscribed = this.#subscriber.subscribe(this.#channel).then(
      () => undefined,
      () => undefined,
    );
  }

  async fail(key: string, budget: Required<FailureBudget>): Promise<SharedFailure> {
    const tagged = `${this.#base}{${key}}`;
    let reply: [number, number];
    try {
      reply = await this.#client.wpkCountFailure(
        `${tagged}:count`,
        `${tagged}:lock`,
        budget.maxFailures,
        budget.windowMs,
        budget.lockoutMs,
        this.#channel,
        `${budget.lockoutMs} ${key}`,
      );
    } catch (error) {
      this.#reachability(false, error);
      throw new StoreError('Redis unavailable for the shared failure counts', { cause: error });
    }
    this.#reachability(true);
    return { began: Number(reply[0]) === 1, lockedForMs: Number(reply[1]) };
  }

  onLocked(listener: (key: string, lockedForMs: number) => void): void {
    this.#listeners.push(listener);
  }

  /** Resolves once the lockout channel is subscribed (or could not be: then at reconnection). */
  ready(): Promise<void> {
    return this.#subscribed;
  }

  /** Closes the subscribed connection; the command client is the caller's. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // QUIT would wait for a connection that is not there: only a connected client is asked to quit.
    if (this.#subscriber.status === 'ready') {
      await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
    } else this.#subscriber.disconnect();
  }

  #heard(channel: string, message: string): void {
    if (channel !== this.#channel) return;
    const space = message.indexOf(' ');
    const ms = Number(message.slice(0, space));
    if (space < 1 || !(ms > 0)) return;
    const key = message.slice(space + 1);
    for (const listener of this.#listeners) listener(key, ms);
  }

  /** One line per change: a Redis outage under a wrong-key storm must not flood the log. */
  #reachability(reachable: boolean, error?: unknown): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    if (reachable) this.#log?.info('wrong-key limiter: Redis answers again, counting for all instances');
    else this.#log?.warn({ err: error }, 'wrong-key limiter: Redis unreachable, counting in process until it is back');
  }
}
