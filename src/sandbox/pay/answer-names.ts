import type { MiddlewareHandler } from 'hono';
import { jsonDepth, MAX_JSON_DEPTH } from '../../contracts/json-depth.js';
import { type AnswerFieldsConfig, renameFields } from '../../contracts/pay/field-names.js';

/**
 * The 2xx answers of a Pay route with their fields under this service's names (the Pay module's `answerFields`,
 * the kit's name to the service's), as a service whose names the document does not show would write them.
 * Refusals and headers are untouched. Undefined when nothing is renamed.
 */
export function answerNames(fields: AnswerFieldsConfig): MiddlewareHandler | undefined {
  const names = new Map(Object.entries(fields) as Array<[string, string]>);
  if (names.size === 0) return undefined;
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 200 || res.status >= 300) return;
    const text = await res.clone().text();
    if (jsonDepth(text, MAX_JSON_DEPTH + 1) > MAX_JSON_DEPTH) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    // Unset first: assigning over a finalized answer would merge the old headers into the new one.
    c.res = undefined;
    c.res = new Response(JSON.stringify(renameFields(json, names)), { status: res.status, headers });
  };
}
