import type { Context, MiddlewareHandler } from 'hono';
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '../../src/contracts/json-depth.js';
import { CONTROL_CHARACTERS_MESSAGE } from '../../src/contracts/text.js';
import { problem } from './refusals.js';

// A percent-encoded C0 control (%00 to %1F) or DEL: no path or query of the kit's APIs has one.
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const RAW_CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Refuses a URL whose path or query holds a control character, encoded
 * (`%00`) or not, with 400 before any route reads a parameter from it: a NUL
 * in a path parameter would otherwise reach the database.
 */
export function refuseControlsInUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    const path = query < 0 ? url.slice(start) : url.slice(start, query);
    const search = query < 0 ? '' : url.slice(query + 1);
    for (const [field, text] of [
      ['path', path],
      ['query', search],
    ] as const) {
      if (ENCODED_CONTROL.test(text) || RAW_CONTROL.test(text))
        throw problem('BAD_REQUEST', [`${field}: ${CONTROL_CHARACTERS_MESSAGE}`]);
    }
    await next();
  };
}

const TOO_DEEP = new WeakSet<Request>();

/** The refusal of a body nested deeper than the limit. */
export function jsonTooDeepProblem() {
  return problem('BAD_REQUEST', [JSON_TOO_DEEP_MESSAGE]);
}

/** Whether this request's body was refused for its depth (the validator reports any JSON failure as one 400). */
export function wasTooDeep(c: Context): boolean {
  return TOO_DEEP.has(c.req.raw);
}

/**
 * Bounds the JSON nesting of request bodies before anything walks them: every
 * `c.req.json()` of the request (the routes' zod validators use it) first
 * counts the depth over the raw text and refuses past the limit. Lazy: the
 * body is read only when a route asks for it, after its auth.
 */
export function boundJsonDepth(): MiddlewareHandler {
  return async (c, next) => {
    const req = c.req;
    req.json = async <T>() => {
      const text = await req.text();
      if (jsonTooDeep(text)) {
        TOO_DEEP.add(req.raw);
        throw jsonTooDeepProblem();
      }
      return JSON.parse(text) as T;
    };
    await next();
  };
}
