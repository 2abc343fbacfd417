import type { IncomingMessage } from 'node:http';
import type { Till } from '../../src/cashdesk/tills.js';
import { isJsonMediaType } from '../http-server/media-type.js';
import type { HttpProblem } from '../http-server/problem.js';
import { payloadTooLarge, unauthorized, unsupportedMediaType } from '../http-server/refusals.js';
import type { TillAuthenticator } from './till-keys.js';
import { clientAddressOf } from '../../src/net/client-address.js';

/**
 * The `admit` of the cash desk's raw POST routes (raw-route.ts): the refusal owed to a POST before its body
 * is read, or the till it authenticated as when the body may be read. In order:
 * - 429 while the caller's address is locked out after too many wrong keys
 *   (thrown by `authenticate` as `LockoutError`);
 * - 401 without a till key, from `Authorization: Bearer <key>` or `?key=` (for
 *   tills that cannot set headers), so an unauthenticated caller costs no body reading;
 * - 413 when Content-Length already says the body is over `limitBytes`;
 * - 415 when a declared Content-Type is not JSON. A missing one is judged
 *   after reading: it is refused only when a body is actually present.
 *
 * Reads the Node request's own headers: building a web `Headers` costs more than all the checks.
 */
export function tillAdmission(
  authenticate: TillAuthenticator,
  limitBytes: number,
): (incoming: IncomingMessage) => HttpProblem | Till {
  return (incoming) => {
    const { headers } = incoming;
    const till = authenticate(headers.authorization, incoming.url, clientAddressOf(incoming));
    if (till === undefined) return unauthorized();
    const length = headers['content-length'];
    // With Transfer-Encoding the length is not to be trusted; the limit is then enforced while reading.
    const declaredOver =
      length !== undefined && headers['transfer-encoding'] === undefined && Number(length) > limitBytes;
    if (declaredOver) return payloadTooLarge(limitBytes);
    const contentType = headers['content-type'];
    if (contentType !== undefined && !isJsonMediaType(contentType)) return unsupportedMediaType();
    return till;
  };
}
