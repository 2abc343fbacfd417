import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUuid } from '../ids/uuid.js';

/**
 * The header that carries a request id, on every answer of the kit's servers,
 * on the Pay client's requests and on the sandbox's webhooks (lower case, as
 * on the wire).
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The ids taken from a caller: 1 to 128 characters a log line and a header carry safely (UUIDs, ULIDs,
 * `till-7-000123`).
 */
const SANE_ID = /^[A-Za-z0-9._~:@/+=-]{1,128}$/;

/** The caller's id when it is sane, else undefined. */
export function acceptedRequestId(given: string | readonly string[] | undefined): string | undefined {
  return typeof given === 'string' && SANE_ID.test(given) ? given : undefined;
}

/**
 * The id of a request: the caller's `X-Request-Id` when sane (bounded, safe
 * characters), else a new UUID, so a hostile header never reaches a log line.
 *
 * @example
 * const id = requestIdFrom(req.headers['x-request-id']);
 */
export function requestIdFrom(given: string | readonly string[] | undefined): string {
  return acceptedRequestId(given) ?? randomUuid();
}

const current = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with `id` as the current request id, for everything it starts
 * (awaits, timers): the Pay client sends it on, the sandbox stores it with
 * the transaction it creates. Used around the payment routes and the API
 * servers' requests, not the verify hot path.
 */
export function withRequestId<T>(id: string, fn: () => T): T {
  return current.run(id, fn);
}

/** The id of the request being handled (see {@link withRequestId}), if any. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}
