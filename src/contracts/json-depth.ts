/**
 * How deep a request body's JSON may nest (objects and arrays). Bodies of the
 * kit's APIs nest a few levels; the bound keeps every later walk of a body
 * (zod, JSON.stringify, the database's JSON parser) far from a stack overflow.
 */
export const MAX_JSON_DEPTH = 64;

/** The `<field>: <message>` line for a body nested too deep. */
export const JSON_TOO_DEEP_MESSAGE = `body: nesting deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * The deepest nesting of `[` and `{` in JSON text, counted in one pass over
 * the characters (strings skipped), without parsing: so it runs before
 * anything walks the value. Stops counting once past `limit`.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/** Whether JSON text nests deeper than {@link MAX_JSON_DEPTH} (or `max`). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  return jsonDepth(text, max) > max;
}
