import type { Context } from 'hono';
import type { ZodType } from 'zod';
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '../../src/contracts/json-depth.js';
import { isJsonMediaType } from '../http-server/media-type.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { HttpProblem } from '../http-server/problem.js';
import { bodyNotJson, invalidBody, unsupportedMediaType } from '../http-server/refusals.js';

/**
 * A JSON request body parsed by `schema` (none: the body must be empty or `{}`); refused 415 when declared as
 * another type or present without a type, 400 when too deep, not JSON or not the schema's.
 */
export async function readJsonBody<T>(c: Context<NodeEnv>, schema: ZodType<T> | undefined): Promise<T> {
  // As the raw POST routes (guards.ts): a declared type that is not JSON is refused before reading, a body without
  // one after. A form or text/plain body is what a page of another origin can send without asking first.
  const contentType = c.req.header('content-type');
  if (contentType !== undefined && !isJsonMediaType(contentType)) throw unsupportedMediaType();
  const text = await c.req.text();
  if (contentType === undefined && text.length > 0) throw unsupportedMediaType();
  if (schema === undefined) {
    if (text.trim() === '' || /^\s*\{\s*\}\s*$/.test(text)) return undefined as T;
    throw new HttpProblem('BAD_REQUEST', ['body: must be empty or {}']);
  }
  // Bounded before anything walks it (JSON.parse would take any depth; what comes after may not).
  if (jsonTooDeep(text)) throw new HttpProblem('BAD_REQUEST', [JSON_TOO_DEEP_MESSAGE]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bodyNotJson();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidBody(parsed.error);
  return parsed.data;
}
