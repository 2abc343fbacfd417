import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { validationErrors } from '../../../src/contracts/validation-errors.js';
import { jsonDepth, jsonTooDeep, MAX_JSON_DEPTH } from '../../../src/contracts/json-depth.js';
import { freeText, hasControlCharacters, jsonTextRule, singleLine, textProblem } from '../../../src/contracts/text.js';

const errors = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : validationErrors(result.error);
};

describe('the text rule', () => {
  it('refuses every C0 control in one-line text, and all but tab, LF and CR in free text', () => {
    for (let code = 0; code < 0x20; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(hasControlCharacters(text)).toBe(true);
      expect(hasControlCharacters(text, { multiline: true })).toBe(![9, 10, 13].includes(code));
    }
    expect(hasControlCharacters('Молоко 3,2% — 1 л')).toBe(false);
  });

  it('refuses unpaired surrogates and keeps pairs (emoji)', () => {
    expect(textProblem('a\ud800b')).toMatch(/unpaired surrogates/);
    expect(textProblem('a\udc00')).toMatch(/unpaired surrogates/);
    expect(textProblem('🥛 milk')).toBeUndefined();
  });

  it('names the field in the schema errors', () => {
    const schema = z.object({ name: singleLine(z.string().max(10)), text: freeText(z.string()) });
    expect(errors(schema, { name: 'a\u0000', text: 'line 1\nline 2\ttab' })).toEqual([
      'name: must not contain control characters',
    ]);
    expect(errors(schema, { name: 'ok', text: 'bell\u0007' })).toEqual(['text: must not contain control characters']);
  });

  it('walks JSON values for strings and keys, reporting the first offence at its path', () => {
    const schema = z.object({ receipt: z.record(z.string(), z.unknown()).superRefine(jsonTextRule) });
    expect(errors(schema, { receipt: { lines: [{ name: 'ok' }, { name: 'x\u0000' }] } })).toEqual([
      'receipt.lines.1.name: must not contain control characters',
    ]);
    expect(errors(schema, { receipt: { lines: [{ 'k\u0000': 1 }] } })).toEqual([
      'receipt.lines.0: keys must not contain control characters',
    ]);
    expect(errors(schema, { receipt: { note: 'two\nlines', n: 1, b: true, z: null } })).toEqual([]);
  });
});

describe('jsonDepth', () => {
  it('counts the nesting of objects and arrays without parsing, skipping strings and escapes', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{\\"[["}')).toBe(1);
    expect(jsonDepth('[[],[],[[]]]')).toBe(3);
  });

  it('bounds at 64 and stops early on huge depths', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonTooDeep('['.repeat(64) + ']'.repeat(64))).toBe(false);
    expect(jsonTooDeep('['.repeat(65) + ']'.repeat(65))).toBe(true);
    expect(jsonDepth('['.repeat(1_000_000), 64)).toBe(65);
  });
});
