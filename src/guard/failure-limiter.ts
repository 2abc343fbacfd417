import { z } from 'zod';
import { validationErrors } from '../contracts/validation-errors.js';
import { ConfigError, LockoutError } from '../errors.js';
import { addressKey } from './address.js';
import { Budget, type FailureBudget } from './budget.js';
import type { SharedFailureCounts } from './shared-counts.js';

export type { FailureBudget } from './budget.js';

/** Options of {@link FailureLimiter}; every field has a default. */
export interface FailureLimiterOptions {
  /**
   * Failures from one address (an IPv6 /64), whatever credential. Default 50 per 5 min, locked 5 min. `false`: none.
   */
  perAddress?: FailureBudget | false;
  /**
   * Failures of one credential (a login, a partner), from any address.
   * Default 10 per 5 min, locked 5 min. `false`: none. While it is locked,
   * addresses where it succeeded within `trustMs` may still try it.
   */
  perCredential?: FailureBudget | false;
  /** How long a success keeps its address trusted for its credential. Default 24 h. */
  trustMs?: number;
  /**
   * Most addresses, credentials and trusted pairs remembered, each; past it the least recently written go first.
   * Default 100,000.
   */
  maxEntries?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /**
   * Where the per-address counts are shared with the other instances of a server
   * (`RedisFailureCounts`), so the budget holds for all of them together. Default: none, per process.
   */
  shared?: SharedFailureCounts;
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

const budgetSchema = z
  .object({
    maxFailures: z.number().int().min(1).max(1_000_000),
    windowMs: z.number().int().min(1),
    lockoutMs: z.number().int().min(1).optional(),
  })
  .strict();

const optionsSchema = z
  .object({
    perAddress: z.union([z.literal(false), budgetSchema]).default({ maxFailures: 50, windowMs: 300_000 }),
    perCredential: z.union([z.literal(false), budgetSchema]).default({ maxFailures: 10, windowMs: 300_000 }),
    trustMs: z
      .number()
      .int()
      .min(0)
      .default(24 * 3600 * 1000),
    maxEntries: z.number().int().min(1).default(100_000),
    clock: z
      .custom<() => number>((v) => typeof v === 'function', { error: 'must be a function' })
      .default(() => Date.now),
    shared: z
      .custom<SharedFailureCounts>(
        (v) => {
          const counts = v as Partial<SharedFailureCounts> | null | undefined;
          return typeof counts?.fail === 'function' && typeof counts.onLocked === 'function';
        },
        { error: 'must have fail and onLocked' },
      )
      .optional(),
  })
  .strict();

/** Shared counts awaited at once, at most: past it (a store hanging under a storm) a failure is counted here only. */
const MAX_PENDING_SHARED = 1_000;

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
 * With `shared` (Redis), the per-address counts are those of every instance
 * together: each failure is also counted there (atomically), and a lockout
 * any instance begins is published to all of them. The answers never wait
 * for the store: `check` reads what this process knows, so attempts already
 * in flight while a lockout travels (one Redis round trip) still get their
 * key checked. While the store is unreachable, the counts of this process
 * hold alone. The per-credential budget and the trust stay per process.
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
  readonly #shared: SharedFailureCounts | undefined;
  readonly #pending = new Set<Promise<void>>();
  #lockouts = 0;

  constructor(options: FailureLimiterOptions = {}) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'failure limiter options');
    const o = parsed.data;
    const budget = (b: FailureBudget | false) =>
      b === false ? undefined : new Budget({ ...b, lockoutMs: b.lockoutMs ?? b.windowMs }, o.maxEntries);
    this.#addresses = budget(o.perAddress);
    this.#credentials = budget(o.perCredential);
    this.#trustMs = o.trustMs;
    this.#maxEntries = o.maxEntries;
    this.#clock = o.clock;
    this.#shared = this.#addresses === undefined ? undefined : o.shared;
    this.#shared?.onLocked((key, ms) => {
      const now = this.#clock();
      this.#addresses!.lock(key, now + ms, now);
    });
  }

  /** Lockouts begun so far (for a metric). */
  get lockouts(): number {
    return this.#lockouts;
  }

  /**
   * The refusal owed to an attempt from `address` with `credential` (a non-secret name), or undefined to go on and
   * check it.
   */
  check(address: string | undefined, credential?: string): LockoutError | undefined {
    const now = this.#clock();
    const addresses = this.#addresses;
    const credentials = this.#credentials;
    // The common case, nothing locked anywhere, costs two comparisons.
    const addressMayBeLocked = addresses !== undefined && now < addresses.lockedUntilMax;
    const credentialMayBeLocked =
      credential !== undefined && credentials !== undefined && now < credentials.lockedUntilMax;
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

  /**
   * Counts a failed attempt; the lockout it began in this process, if any (log it once, count it).
   * With `shared` counts, a lockout the cluster's count begins with this failure comes later, to
   * `onSharedLockout` (never both for one failure).
   */
  failed(
    address: string | undefined,
    credential?: string,
    onSharedLockout?: (lockout: Lockout) => void,
  ): Lockout | undefined {
    const now = this.#clock();
    const where = addressKey(address);
    let lockout: Lockout | undefined;
    if (this.#addresses?.fail(where, now)) {
      lockout = { scope: 'address', address: where, retryAfterSeconds: seconds(this.#addresses.lockedFor(where, now)) };
    }
    if (this.#shared !== undefined && this.#pending.size < MAX_PENDING_SHARED) {
      this.#share(where, lockout !== undefined, onSharedLockout);
    }
    if (credential !== undefined && this.#credentials !== undefined) {
      const name = credentialKey(credential);
      if (this.#credentials.fail(name, now)) {
        lockout ??= {
          scope: 'credential',
          address: where,
          credential: name,
          retryAfterSeconds: seconds(this.#credentials.lockedFor(name, now)),
        };
      }
    }
    if (lockout !== undefined) this.#lockouts++;
    return lockout;
  }

  /**
   * Whether the failure just counted for `address` was its first of the window: the one to log, so that failed
   * authentications are told once per address and window, never once per guess.
   */
  firstFailureOf(address: string | undefined): boolean {
    return this.#addresses?.failures(addressKey(address), this.#clock()) === 1;
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

  /** Resolves once every failure counted so far has been answered by the shared store (or failed to be). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Counts the failure in the shared store; a lockout it reports is this process's too. */
  #share(where: string, beganHere: boolean, onSharedLockout: ((lockout: Lockout) => void) | undefined): void {
    const addresses = this.#addresses!;
    const pending = this.#shared!.fail(where, addresses.budget)
      .then(
        ({ began, lockedForMs }) => {
          if (lockedForMs <= 0) return;
          const now = this.#clock();
          addresses.lock(where, now + lockedForMs, now);
          // When this process's own count began it too, `failed` has reported it already.
          if (!began || beganHere) return;
          this.#lockouts++;
          onSharedLockout?.({ scope: 'address', address: where, retryAfterSeconds: seconds(lockedForMs) });
        },
        () => {
          // Unreachable: this process's count stands alone meanwhile (the store logs that once).
        },
      )
      .finally(() => this.#pending.delete(pending));
    this.#pending.add(pending);
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
