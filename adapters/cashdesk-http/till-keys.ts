import type { CashDeskService } from '../../src/cashdesk/service.js';
import { presentedKey, type Till } from '../../src/cashdesk/tills.js';

/**
 * Authenticates the till key a request presents (`Authorization: Bearer <key>`,
 * else `?key=` in `url`), from `remoteAddress`, for the HTTP transport: the
 * till, or undefined; throws `LockoutError` while the address is locked out
 * after too many wrong keys.
 */
export type TillAuthenticator = (
  authorization: string | undefined,
  url: string | undefined,
  remoteAddress: string | undefined,
) => Till | undefined;

const BEARER = 'Bearer ';

/**
 * `service.authenticate` for every HTTP request, remembering the keys that
 * succeeded. The registry's constant-time check hashes each key (SHA-256),
 * the largest single cost left on the verify hot path, and every
 * request of a till presents the same key.
 *
 * Why this keeps the registry's guarantees:
 * - only keys that authenticated are kept, in their one canonical header
 *   spelling, so the map holds at most one entry per configured till and
 *   nothing a caller sends can grow it;
 * - a miss, i.e. every wrong key, still goes through `service.authenticate`,
 *   which compares in constant time and counts the failure;
 * - a hit is admitted only while its address is not locked out, so the map
 *   cannot check guesses for a locked-out caller;
 * - a `Map` compares string hashes before contents, so a wrong key's lookup
 *   time says nothing about how much of a kept key it matched; that a hit is
 *   faster than a miss tells only what the 200 or 401 tells anyway.
 * It relies on a service's tills being fixed at construction, as
 * `CashDeskService` has them; a service that could revoke keys would need its
 * own cache instead.
 */
export function rememberingAuthenticator(service: CashDeskService): TillAuthenticator {
  // Keyed by the whole header, `Bearer <key>` exactly as tills send it: a hit then costs one look-up, with no
  // parse of the header (a case-blind pattern and a slice were ~1% of the verify route's instructions).
  // Other spellings of a good key ("bearer", more spaces) go the long way each time and are never kept, so the
  // map stays at one entry per till however a caller spells its header.
  const known = new Map<string, Till>();
  return (authorization, url, remoteAddress) => {
    if (authorization !== undefined) {
      const till = known.get(authorization);
      if (till !== undefined) {
        service.admit(remoteAddress);
        return till;
      }
    }
    const key = presentedKey(authorization, url);
    const till = service.authenticate(key, 'http', remoteAddress);
    if (till !== undefined && authorization === BEARER + key) known.set(authorization, till);
    return till;
  };
}
