import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { tooManyRequests } from './refusals.js';
import { clientAddressOf } from '../../src/net/client-address.js';
import { FailureLimiter, type FailureLimiterOptions } from '../../src/guard/failure-limiter.js';

/** A brute-force limit on one API's credential check, and where its lockouts are logged. */
export interface AuthGuard {
  limiter: FailureLimiter;
  logger: Logger;
  /** Names the API in the lockout line (`loyalty`, `push`, `pay`). */
  realm: string;
}

/** A limiter given as is, built from options, or none for `false`. */
export function limiterFrom(
  option: FailureLimiter | FailureLimiterOptions | false | undefined,
  clock?: () => number,
): FailureLimiter | undefined {
  if (option === false) return undefined;
  if (option instanceof FailureLimiter) return option;
  return new FailureLimiter({ ...(clock ? { clock } : {}), ...option });
}

/**
 * The client's address of a request served by @hono/node-server, as the server's `trustedProxies` make it out
 * (`clientAddressOf`); undefined elsewhere (e.g. `app.request` in tests).
 */
export function remoteAddressOf(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket === undefined ? undefined : clientAddressOf(incoming);
}

/**
 * Runs a credential check under `guard`: 429 `TOO_MANY_REQUESTS` with
 * `Retry-After` while the caller's address (or, for a new address, the
 * credential) is locked out, without running the check; then counts a
 * failure (`undefined` from `check`) or a success. Each lockout is logged
 * once, naming the credential (a login or partner id) but never a secret.
 *
 * @param credential The non-secret name the attempt is for (login, partner id), when one is known.
 */
export async function guardedCheck<T>(
  guard: AuthGuard | undefined,
  c: Context,
  credential: string | undefined,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T | undefined> {
  if (guard === undefined) return check();
  const address = remoteAddressOf(c);
  const refusal = guard.limiter.check(address, credential);
  if (refusal !== undefined) throw tooManyRequests(refusal);
  const result = await check();
  if (result !== undefined) {
    guard.limiter.succeeded(address, credential);
    return result;
  }
  const lockout = guard.limiter.failed(address, credential);
  if (lockout === undefined && guard.limiter.firstFailureOf(address)) {
    // The credential's name only (a login, a partner id), never what was presented.
    const named = credential === undefined ? {} : { credential: credential.slice(0, 128) };
    guard.logger.warn(
      { realm: guard.realm, remoteAddress: address, ...named },
      'authentication failed (told once per address and window)',
    );
  }
  if (lockout !== undefined) {
    guard.logger.warn(
      {
        realm: guard.realm,
        scope: lockout.scope,
        remoteAddress: lockout.address,
        ...(lockout.credential === undefined ? {} : { credential: lockout.credential }),
        retryAfterSeconds: lockout.retryAfterSeconds,
      },
      'authentication locked out',
    );
  }
  return undefined;
}
