/**
 * The `id` members of a frame as the till wrote them. JSON.parse turns every
 * number into a double, so an id past 2^53 (a Java `long`), or one written
 * `1.0`, would come back as other digits than the till sent and never match
 * its call. Node 20's JSON.parse cannot hand out a value's source text, so the
 * text is read here: one pass over the frame, only for frames whose parsed
 * id is a number. The text has already been parsed, so it is valid JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the string starting at `at` (its opening quote). */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return i + 1;
  }
  return text.length;
}

/**
 * The index just past the value starting at `at`. Nesting is counted, never
 * recursed into: a frame of 300 000 nested arrays must not exhaust the stack.
 */
function skipValue(text: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipString(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      // At depth 0 this closes the container around a number or literal that ended just before it.
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (code === COMMA || isSpace(code))) {
      return i;
    }
    i++;
  }
  return i;
}

/** A member name's value: escapes are rare, and JSON.parse reads them exactly. */
function nameAt(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/**
 * The text of the `id` member of the object starting at `at`, and the index
 * just past that object. The last `id` wins, as it does for JSON.parse.
 */
function objectId(text: string, at: number): { id: string | undefined; end: number } {
  let id: string | undefined;
  let i = skipSpace(text, at + 1);
  while (i < text.length && text.charCodeAt(i) !== CLOSE_BRACE) {
    const nameEnd = skipString(text, i);
    const name = nameAt(text, i, nameEnd);
    i = skipSpace(text, nameEnd);
    if (text.charCodeAt(i) === COLON) i = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, i);
    if (name === 'id') id = text.slice(i, valueEnd);
    i = skipSpace(text, valueEnd);
    if (text.charCodeAt(i) === COMMA) i = skipSpace(text, i + 1);
  }
  return { id, end: i + 1 };
}

/** The `id` text of a frame holding one request object (undefined when it has none). */
export function requestIdText(text: string): string | undefined {
  const at = skipSpace(text, 0);
  return text.charCodeAt(at) === OPEN_BRACE ? objectId(text, at).id : undefined;
}

/**
 * The `id` text of each element of a batch frame, by index (undefined for an element that is no object, or has none).
 */
export function batchIdTexts(text: string): Array<string | undefined> {
  const ids: Array<string | undefined> = [];
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACKET) return ids;
  i = skipSpace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) !== CLOSE_BRACKET) {
    if (text.charCodeAt(i) === OPEN_BRACE) {
      const { id, end } = objectId(text, i);
      ids.push(id);
      i = end;
    } else {
      ids.push(undefined);
      i = skipValue(text, i);
    }
    i = skipSpace(text, i);
    if (text.charCodeAt(i) === COMMA) i = skipSpace(text, i + 1);
  }
  return ids;
}
