import { z } from 'zod';
import { validationErrors } from '../contracts/errors.js';
import { ConfigError, LockoutError } from '../errors.js';
import { addressKey } from './address.js';

/** A failure budget: past `maxFailures` failures within `windowMs`, locked out for `lockoutMs`. */
export interface FailureBudget {
  /** Failures allowed within the window; the attempt after the last of them is refused. */
  maxFailures: number;
  /** Milliseconds, counted from the first failure of the window. */
  windowMs: number;
  /** Milliseconds the lockout lasts. Default: `windowMs`. */
  lockoutMs?: number;
}

/** Options of {@link FailureLimiter}; every field has a default. */
export interface FailureLimiterOptions {
  /** Failures from one address (an IPv6 /64), whatever credential. Default 50 per 5 min, locked 5 min. `false`: none. */
  perAddress?: FailureBudget | false;
  /**
   * Failures of one credential (a login, a partner), from any address.
   * Default 10 per 5 min, locked 5 min. `false`: none. While it is locked,
   * addresses where it succeeded within `trustMs` may still try it.
   */
  perCredential?: FailureBudget | false;
  /** How long a success keeps its address trusted for its credential. Default 24 h. */
  trustMs?: number;
  /** Most addresses, credentials and trusted pairs remembered, each; past it the least recently written go first. Default 100,000. */
  maxEntries?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
}

/** A lockout that has just begun: for the one log line and the metric. */
export interface Lockout {
  scope: 'address' | 'credential';
  /** The address as counted (IPv4, or an IPv6 /64). */
  address: string;
  /** The credential's name (login, partner id), never a secret; for a credential lockout only. */
  credential?: string;
  retryAfterSeconds: number;
}

const budgetSchema = z.object({
  maxFailures: z.number().int().min(1).max(1_000_000),
  windowMs: z.number().int().min(1),
  lockoutMs: z.number().int().min(1).optional(),
}).strict();

const optionsSchema = z.object({
  perAddress: z.union([z.literal(false), budgetSchema]).default({ maxFailures: 50, windowMs: 300_000 }),
  perCredential: z.union([z.literal(false), budgetSchema]).default({ maxFailures: 10, windowMs: 300_000 }),
  trustMs: z.number().int().min(0).default(24 * 3600 * 1000),
  maxEntries: z.number().int().min(1).default(100_000),
  clock: z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function' }).default(() => Date.now),
}).strict();

interface Entry {
  failures: number;
  windowEnds: number;
  lockedUntil: number;
}

/** One budget's counts, bounded: least recently written shed first. */
class Budget {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #lockoutMs: number;
  /** No lock of this budget lasts past this: before it, `lockedFor` may look; after, nothing is locked. */
  lockedUntilMax = 0;

  constructor(readonly budget: Required<FailureBudget>, max: number) {
    this.#max = max;
    this.#lockoutMs = budget.lockoutMs;
  }

  /** Milliseconds `key` stays locked, 0 when it is not. */
  lockedFor(key: string, now: number): number {
    if (now >= this.lockedUntilMax) return 0;
    const entry = this.#entries.get(key);
    return entry === undefined ? 0 : Math.max(0, entry.lockedUntil - now);
  }

  /** Counts a failure; true when it spends the budget and a lockout begins. */
  fail(key: string, now: number): boolean {
    let entry = this.#entries.get(key);
    if (entry === undefined || now >= entry.windowEnds) entry = { failures: 0, windowEnds: now + this.budget.windowMs, lockedUntil: 0 };
    entry.failures++;
    const locks = entry.failures >= this.budget.maxFailures;
    if (locks) {
      entry.lockedUntil = now + this.#lockoutMs;
      // A fresh window once the lockout is over.
      entry.failures = 0;
      entry.windowEnds = entry.lockedUntil;
      this.lockedUntilMax = Math.max(this.lockedUntilMax, entry.lockedUntil);
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    return locks;
  }

  /** Starts `key`'s count again, unless it is locked: a lock runs its course. */
  reset(key: string, now: number): void {
    if (this.lockedFor(key, now) === 0) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Brute-force limits for a credential check (till keys, Basic auth, API
 * tokens), in memory and bounded, on an injected clock. Call `check` before
 * checking a credential (a `LockoutError` means answer 429 with `Retry-After`
 * without checking it), then `failed` or `succeeded`.
 *
 * Two budgets, because they stop different attacks:
 * - per address (default 50 failures per 5 min): the main guard. One address
 *   guessing any credential is locked out, and only that address: the right
 *   credential still works from every other address.
 * - per credential (default 10 failures per 5 min): limits guessing one login
 *   from many addresses. Its lockout refuses new addresses only: an address
 *   where the credential succeeded within `trustMs` keeps being let in, so an
 *   attacker elsewhere cannot lock a working till or partner out, however long
 *   they keep failing; they can only delay its first login from a new address.
 * A success never resets an address's count (a caller holding one valid
 * credential must not earn guesses at others); it resets the credential's.
 * Credentials are named only by non-secret ids (a login, a partner id); a
 * till key names no till, so till keys use the address budget alone.
 *
 * @throws ConfigError when `options` are invalid.
 * @example
 * const limiter = new FailureLimiter({ perAddress: { maxFailures: 20, windowMs: 60_000 } });
 * const refusal = limiter.check(remoteAddress, login);
 * if (refusal) return tooManyRequests(refusal.retryAfterSeconds);
 * if (!valid) { const lockout = limiter.failed(remoteAddress, login); if (lockout) log.warn(lockout, 'locked out'); }
 */
export class FailureLimiter {
  readonly #addresses: Budget | undefined;
  readonly #credentials: Budget | undefined;
  readonly #trusted = new Map<string, number>();
  readonly #trustMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  #lockouts = 0;

  constructor(options: FailureLimiterOptions = {}) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'failure limiter options');
    const o = parsed.data;
    const budget = (b: FailureBudget | false) => (b === false ? undefined : new Budget({ ...b, lockoutMs: b.lockoutMs ?? b.windowMs }, o.maxEntries));
    this.#addresses = budget(o.perAddress);
    this.#credentials = budget(o.perCredential);
    this.#trustMs = o.trustMs;
    this.#maxEntries = o.maxEntries;
    this.#clock = o.clock;
  }

  /** Lockouts begun so far (for a metric). */
  get lockouts(): number {
    return this.#lockouts;
  }

  /** The refusal owed to an attempt from `address` with `credential` (a non-secret name), or undefined to go on and check it. */
  check(address: string | undefined, credential?: string): LockoutError | undefined {
    const now = this.#clock();
    const addresses = this.#addresses;
    const credentials = this.#credentials;
    // The common case, nothing locked anywhere, costs two comparisons.
    const addressMayBeLocked = addresses !== undefined && now < addresses.lockedUntilMax;
    const credentialMayBeLocked = credential !== undefined && credentials !== undefined && now < credentials.lockedUntilMax;
    if (!addressMayBeLocked && !credentialMayBeLocked) return undefined;
    const where = addressKey(address);
    const addressWait = addressMayBeLocked ? addresses.lockedFor(where, now) : 0;
    if (addressWait > 0) return new LockoutError('address', seconds(addressWait));
    if (credentialMayBeLocked) {
      const name = credentialKey(credential);
      const wait = credentials.lockedFor(name, now);
      if (wait > 0 && !this.#isTrusted(name, where, now)) return new LockoutError('credential', seconds(wait));
    }
    return undefined;
  }

  /** Counts a failed attempt; the lockout it began, if any (log it once, count it). */
  failed(address: string | undefined, credential?: string): Lockout | undefined {
    const now = this.#clock();
    const where = addressKey(address);
    let lockout: Lockout | undefined;
    if (this.#addresses?.fail(where, now)) {
      lockout = { scope: 'address', address: where, retryAfterSeconds: seconds(this.#addresses.lockedFor(where, now)) };
    }
    if (credential !== undefined && this.#credentials !== undefined) {
      const name = credentialKey(credential);
      if (this.#credentials.fail(name, now)) {
        lockout ??= { scope: 'credential', address: where, credential: name, retryAfterSeconds: seconds(this.#credentials.lockedFor(name, now)) };
      }
    }
    if (lockout !== undefined) this.#lockouts++;
    return lockout;
  }

  /**
   * Records a successful attempt: the address is trusted for the credential,
   * and the credential's count starts again (a lockout under way runs its course).
   */
  succeeded(address: string | undefined, credential?: string): void {
    if (credential === undefined || this.#credentials === undefined) return;
    const name = credentialKey(credential);
    const now = this.#clock();
    this.#credentials.reset(name, now);
    if (this.#trustMs === 0) return;
    const pair = `${name}\n${addressKey(address)}`;
    this.#trusted.delete(pair);
    this.#trusted.set(pair, now + this.#trustMs);
    if (this.#trusted.size > this.#maxEntries) this.#trusted.delete(this.#trusted.keys().next().value!);
  }

  #isTrusted(name: string, where: string, now: number): boolean {
    const until = this.#trusted.get(`${name}\n${where}`);
    return until !== undefined && until > now;
  }
}

/** Whole seconds for `Retry-After`, rounded up, at least 1. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Logins are chosen by callers: a long one is cut, so it can neither fill memory nor a log line. */
function credentialKey(credential: string): string {
  return credential.length <= 128 ? credential : credential.slice(0, 128);
}
