import type { z } from 'zod';
import { MAX_JSON_DEPTH } from './json-depth.js';

/**
 * The kit's one rule for text: a string that can reach storage or a
 * log holds no C0 control characters (U+0000 to U+001F; free text may keep tab,
 * line feed and carriage return) and no unpaired surrogates. PostgreSQL refuses
 * NUL outright and a surrogate cannot be encoded as UTF-8, so letting either in
 * would only move the refusal to the database, as a 500.
 */

/** The `<field>: <message>` message for a control character. */
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';
/** The message for an unpaired surrogate (text that is not valid Unicode). */
export const UNPAIRED_SURROGATE_MESSAGE = 'must be valid Unicode text (no unpaired surrogates)';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls are the characters this text refuses
const ANY_C0 = /[\u0000-\u001f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls but tab, LF and CR, refused likewise
const C0_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a C0 control character (tab, LF and CR allowed when `multiline`). */
export function hasControlCharacters(text: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  return (multiline ? C0_BUT_WHITESPACE : ANY_C0).test(text);
}

/** The rule's message for `text`, or undefined when it holds. */
export function textProblem(text: string, options: { multiline?: boolean } = {}): string | undefined {
  if (hasControlCharacters(text, options)) return CONTROL_CHARACTERS_MESSAGE;
  if (UNPAIRED.test(text)) return UNPAIRED_SURROGATE_MESSAGE;
  return undefined;
}

function ruled<T extends z.ZodType<string>>(schema: T, multiline: boolean): T {
  return schema
    .refine((v) => !hasControlCharacters(v, { multiline }), { error: CONTROL_CHARACTERS_MESSAGE })
    .refine((v) => !UNPAIRED.test(v), { error: UNPAIRED_SURROGATE_MESSAGE }) as unknown as T;
}

/**
 * A one-line string schema under the text rule: no control character at all
 * (names, logins, ids, URLs, codes, passwords).
 *
 * @example
 * const login = singleLine(z.string().min(1).max(64));
 */
export function singleLine<T extends z.ZodType<string>>(schema: T): T {
  return ruled(schema, false);
}

/** A free-text string schema under the text rule: tab, LF and CR allowed (messages, receipts). */
export function freeText<T extends z.ZodType<string>>(schema: T): T {
  return ruled(schema, true);
}

/**
 * A zod `superRefine` for arbitrary JSON (a forwarded receipt): every string in
 * it, keys included, must be free text under the rule; the first offence is
 * reported at its own path. The depth is bounded before validation (the
 * request's JSON nesting limit), so the walk is bounded too.
 *
 * @example
 * z.record(z.string(), z.unknown()).superRefine(jsonTextRule)
 */
export function jsonTextRule(value: unknown, ctx: z.RefinementCtx): void {
  const found = firstTextProblem(value, []);
  if (found !== undefined) ctx.addIssue({ code: 'custom', message: found.message, path: found.path });
}

/**
 * A zod `superRefine` for arbitrary JSON that a transport hands over already
 * parsed (the bridge's `pay.receipt` params; a request body's own depth is
 * bounded before parsing): refuses a value nested deeper than
 * {@link MAX_JSON_DEPTH} (`nesting deeper than 64 levels`) before anything
 * else walks it, then applies {@link jsonTextRule}. The depth walk itself stops
 * one level past the bound, so any depth is safe.
 *
 * @example
 * z.record(z.string(), z.unknown()).superRefine(boundedJsonRule)
 */
export function boundedJsonRule(value: unknown, ctx: z.RefinementCtx): void {
  if (deeperThan(value, MAX_JSON_DEPTH)) {
    ctx.addIssue({ code: 'custom', message: `nesting deeper than ${MAX_JSON_DEPTH} levels` });
    return;
  }
  jsonTextRule(value, ctx);
}

/** Whether `value` nests objects and arrays more than `levels` deep; looks no deeper than that. */
function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const inner of Array.isArray(value) ? value : Object.values(value))
    if (deeperThan(inner, levels - 1)) return true;
  return false;
}

function firstTextProblem(
  value: unknown,
  path: (string | number)[],
): { path: (string | number)[]; message: string } | undefined {
  if (typeof value === 'string') {
    const message = textProblem(value, { multiline: true });
    return message === undefined ? undefined : { path, message };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstTextProblem(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      // A bad key is named by where it sits, not by itself (it would carry the bad character).
      const keyMessage = textProblem(key, { multiline: false });
      if (keyMessage !== undefined) return { path, message: `keys ${keyMessage}` };
      const found = firstTextProblem(inner, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
