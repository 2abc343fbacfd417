import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { LOYALTY_UNAUTHORIZED_MESSAGE, LOYALTY_WWW_AUTHENTICATE } from '../contracts/loyalty/errors.js';
import { guardedCheck, problem, type AuthGuard } from '../../adapters/http-server/index.js';
import { parseBasicAuth, type BasicCredentials } from '../net/basic-auth.js';

/**
 * Who may call the Loyalty API: the Basic credentials given to the wallet
 * service, several of them (e.g. while rotating a password), or a function.
 */
export type LoyaltyAuth =
  | BasicCredentials
  | readonly BasicCredentials[]
  | ((credentials: BasicCredentials) => boolean | Promise<boolean>);

/** Variables the auth middleware sets for the handlers. */
export interface LoyaltyAuthVariables {
  loyaltyLogin: string;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * A constant-time matcher for fixed credentials. The allowed pair's digests are
 * taken once; a request's login and password are hashed once each and compared
 * against every entry without stopping early, so neither content, length nor
 * which entry came close shows in the timing.
 */
function matcher(allowed: readonly BasicCredentials[]): (given: BasicCredentials) => boolean {
  const digests = allowed.map((entry) => ({ login: digest(entry.login), password: digest(entry.password) }));
  return (given) => {
    const login = digest(given.login);
    const password = digest(given.password);
    let ok = false;
    for (const entry of digests) {
      const loginOk = timingSafeEqual(entry.login, login);
      const passwordOk = timingSafeEqual(entry.password, password);
      ok = (loginOk && passwordOk) || ok;
    }
    return ok;
  };
}

/**
 * Refuses a request without valid Basic credentials: 401 `UNAUTHORIZED` with
 * `WWW-Authenticate: Basic`; under `guard`, 429 with `Retry-After` once the
 * caller's address, or the login from a new address, has failed too often.
 */
export function basicAuth(
  auth: LoyaltyAuth,
  guard?: AuthGuard,
): MiddlewareHandler<{ Variables: LoyaltyAuthVariables }> {
  const check = typeof auth === 'function' ? auth : matcher(Array.isArray(auth) ? auth : [auth as BasicCredentials]);
  return async (c, next) => {
    const given = parseBasicAuth(c.req.header('authorization'));
    // A missing or unreadable header counts as a failure of the address only.
    const admitted = await guardedCheck(guard, c, given?.login, async () =>
      given !== undefined && (await check(given)) ? given : undefined,
    );
    if (given === undefined || admitted === undefined) {
      throw problem('UNAUTHORIZED', [LOYALTY_UNAUTHORIZED_MESSAGE], {
        headers: { 'www-authenticate': LOYALTY_WWW_AUTHENTICATE },
      });
    }
    c.set('loyaltyLogin', given.login);
    await next();
  };
}
