import type { Context, MiddlewareHandler } from 'hono';
import { jsonDepth, MAX_JSON_DEPTH } from '../../../contracts/json-depth.js';
import { FOREIGN_ERRORS } from './foreign-words.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(text: string): unknown {
  if (jsonDepth(text, MAX_JSON_DEPTH + 1) > MAX_JSON_DEPTH) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Every refusal of a Pay route (the kit's `{status, errors[]}`, from the
 * token check, the schema or the operation) re-worded as this service's
 * `{code, message}` with its HTTP status. Headers (`Retry-After`, the request
 * id) are kept; 2xx answers pass untouched (the routes word those).
 */
export const foreignErrors: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (res.status < 400) return;
  const envelope = parse(await res.clone().text());
  if (!isObject(envelope) || typeof envelope.status !== 'string') return;
  const list = Array.isArray(envelope.errors) ? envelope.errors : [];
  const errors = list.filter((e): e is string => typeof e === 'string');
  const foreign = FOREIGN_ERRORS[envelope.status] ?? { httpStatus: res.status, code: envelope.status };
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  // Unset first: assigning over a finalized answer would merge the old headers into the new one.
  c.res = undefined;
  const body = JSON.stringify({ code: foreign.code, message: errors.join('; ') });
  c.res = new Response(body, { status: foreign.httpStatus, headers });
};

/**
 * Reads this service's numeric `transactionId` as the id the sandbox stores
 * (its decimal text), so the body's schema and the operations see the kit's
 * string. Runs after the token check, which has read the raw bytes: the
 * signature is over what the client sent, the rewrite only feeds the schema.
 */
export function foreignIds(idIn: (value: unknown) => string | undefined): MiddlewareHandler {
  return async (c: Context, next) => {
    const body = parse(await c.req.text());
    if (isObject(body) && typeof body.transactionId === 'number') {
      const id = idIn(body.transactionId);
      // Hono keeps promises in its body cache (its type says values): the schema's c.req.json() reads this text.
      const cache = c.req.bodyCache as { text?: Promise<string> };
      if (id !== undefined) cache.text = Promise.resolve(JSON.stringify({ ...body, transactionId: id }));
    }
    await next();
  };
}
