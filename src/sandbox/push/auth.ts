import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { UNAUTHORIZED_MESSAGE } from '../../contracts/push/index.js';
import type { Queryable } from '../../db/index.js';
import { guardedCheck, problem, type AuthGuard, type HttpProblem } from '../../../adapters/http-server/index.js';
import { parseBasicAuth } from '../../net/basic-auth.js';
import { findAccount, type PushAccount } from './accounts.js';
import { DUMMY_HASH, verifyPassword } from './password.js';

/** The 401 of the Push API, word for word (document section 7), with the Basic challenge. */
export function pushUnauthorized(): HttpProblem {
  return problem('UNAUTHORIZED', [UNAUTHORIZED_MESSAGE], { headers: { 'www-authenticate': 'Basic realm="push"' } });
}

/**
 * Remembers passwords already checked against a stored hash, so a campaign's
 * thousands of calls pay for scrypt once. Keyed by login; an entry holds the
 * hash it was checked against (a reset invalidates it) and an HMAC of the
 * password under a key that lives only in this process.
 */
export class VerifiedPasswords {
  readonly #key = randomBytes(32);
  readonly #entries = new Map<string, { hash: string; digest: Buffer }>();
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  // NFC as scrypt sees it (password.ts), so the cache and a scrypt check never disagree.
  #digest(password: string): Buffer {
    return createHmac('sha256', this.#key).update(password.normalize('NFC'), 'utf8').digest();
  }

  /** True when `password` is known to match `hash` (constant-time). */
  has(login: string, hash: string, password: string): boolean {
    return this.matches(login, hash, password) === true;
  }

  /**
   * Whether `password` is the one `hash` was checked against (constant-time); undefined when no password is
   * remembered for that hash, so only scrypt can tell.
   */
  matches(login: string, hash: string, password: string): boolean | undefined {
    const entry = this.#entries.get(login);
    if (entry === undefined || entry.hash !== hash) return undefined;
    return timingSafeEqual(entry.digest, this.#digest(password));
  }

  remember(login: string, hash: string, password: string): void {
    if (this.#entries.size >= this.#max) this.#entries.clear();
    this.#entries.set(login, { hash, digest: this.#digest(password) });
  }
}

/**
 * The account whose Basic credentials are right, else undefined. Unknown logins
 * cost a scrypt run too, so timing does not tell which logins exist.
 */
export async function authenticate(
  db: Queryable,
  cache: VerifiedPasswords,
  header: string | undefined,
): Promise<PushAccount | undefined> {
  const credentials = parseBasicAuth(header);
  if (credentials === undefined) return undefined;
  const account = await findAccount(db, credentials.login);
  if (account === undefined) {
    await verifyPassword(credentials.password, DUMMY_HASH);
    return undefined;
  }
  if (cache.has(account.login, account.passwordHash, credentials.password)) return account;
  if (!(await verifyPassword(credentials.password, account.passwordHash))) return undefined;
  cache.remember(account.login, account.passwordHash, credentials.password);
  return account;
}

const ACCOUNT = 'pushAccount';

/**
 * Basic auth for `/public/*` (document section 3, 5): wrong or missing
 * credentials answer 401, and so does every call but the reset while the
 * initial password is in force. The reset itself needs the current password.
 * Under `guard`, 429 with `Retry-After` once the caller's address, or the
 * login from a new address, has failed too often.
 */
export function pushAuth(
  db: Queryable,
  cache: VerifiedPasswords,
  resetPath: string,
  guard?: AuthGuard,
): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const login = parseBasicAuth(header)?.login;
    const account = await guardedCheck(guard, c, login === undefined ? undefined : `push:${login}`, () =>
      authenticate(db, cache, header),
    );
    if (account === undefined) throw pushUnauthorized();
    if (!account.passwordReset && !(c.req.method === 'PUT' && c.req.path === resetPath)) throw pushUnauthorized();
    c.set(ACCOUNT as never, account as never);
    await next();
  };
}

/** The authenticated account of a `/public/*` request. */
export function currentAccount(c: Context): PushAccount {
  return c.get(ACCOUNT as never) as PushAccount;
}
