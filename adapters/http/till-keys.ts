import type { CashDeskService } from '../../src/cashdesk/service.js';
import type { Till } from '../../src/cashdesk/tills.js';

/**
 * Authenticates a presented till key, from `remoteAddress`, for the HTTP
 * transport: the till, or undefined; throws `LockoutError` while the address
 * is locked out after too many wrong keys.
 */
export type TillAuthenticator = (key: string | undefined, remoteAddress: string | undefined) => Till | undefined;

/**
 * `service.authenticate` for every HTTP request, remembering the keys that
 * succeeded. The registry's constant-time check hashes each key (SHA-256),
 * the largest single cost left on the verify hot path (issue 3), and every
 * request of a till presents the same key.
 *
 * Why this keeps the registry's guarantees:
 * - only keys that authenticated are kept, so the map holds at most one entry
 *   per configured till and nothing a caller sends can grow it;
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
  const known = new Map<string, Till>();
  return (key, remoteAddress) => {
    if (key !== undefined) {
      const till = known.get(key);
      if (till !== undefined) {
        service.admit(remoteAddress);
        return till;
      }
    }
    const till = service.authenticate(key, 'http', remoteAddress);
    if (till !== undefined && key !== undefined) known.set(key, till);
    return till;
  };
}
