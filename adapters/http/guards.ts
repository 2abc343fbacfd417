import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CashDeskService } from '../../src/server/service.js';
import { presentedKey, type Till } from '../../src/server/tills.js';
import { payloadTooLarge, problemResponse, unauthorized, unsupportedMediaType } from './problems.js';

/** Context variables set by {@link requireTill}. */
export interface TillEnv {
  Variables: { till: Till };
}

/**
 * Admits a request only with a till key, from `Authorization: Bearer <key>` or
 * `?key=` (for tills that cannot set headers); sets `till`. Runs before the
 * body is read, so an unauthenticated caller costs no body parsing.
 */
export function requireTill(service: CashDeskService): MiddlewareHandler<TillEnv> {
  return async (c, next) => {
    const till = service.authenticate(presentedKey(c.req.header('authorization'), c.req.url), 'http');
    if (till === undefined) return problemResponse(c, unauthorized());
    c.set('till', till);
    await next();
  };
}

/**
 * Refuses bodies over `limitBytes` with 413: at once when Content-Length says
 * so, otherwise as soon as a chunked body passes the limit (hono's bodyLimit).
 */
export function limitBody(limitBytes: number): MiddlewareHandler {
  return bodyLimit({ maxSize: limitBytes, onError: (c) => problemResponse(c, payloadTooLarge(limitBytes)) });
}

// application/json or any +json type, with parameters such as charset.
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json[\t ]*(?:;.*)?$/i;

/** True when a Content-Type header declares JSON. */
export function isJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType.trim());
}

/**
 * 415 unless a declared Content-Type is JSON. A missing one is left to the
 * handler, which refuses it only when a body is actually present (as the
 * zod-openapi gate does for the verify route).
 */
export const requireJsonMediaType: MiddlewareHandler = async (c, next) => {
  const contentType = c.req.header('content-type');
  if (contentType !== undefined && !isJsonMediaType(contentType)) return problemResponse(c, unsupportedMediaType());
  await next();
};
