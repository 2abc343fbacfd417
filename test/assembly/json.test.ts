import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../src/entries/index.js';
import { BASE_CONFIG } from '../support/fixtures.js';

// assembly/json.ts validates a request body while getToken hashes it; JSON.parse is the oracle.
const verifier = createVerifier(BASE_CONFIG);

function accepts(text: string): boolean {
  try {
    verifier.getToken(text);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== 'REQUEST_DATA_INVALID') throw error;
    return false;
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('core JSON validator', () => {
  it('agrees with JSON.parse on the grammar edge cases', () => {
    const cases = [
      '{}',
      '[]',
      '""',
      '0',
      '-0',
      '1.5e-3',
      '1E+2',
      'true',
      'false',
      'null',
      '1e5',
      '-12.50E-07',
      '{"":""}',
      '"\\ud800"',
      ' {"a" : [1, 2, {"b": null}], "c": "\\u00e9\\n\\/"} ',
      '[[[[[]]]]]',
      '{"x":[true,false,null]}',
      '{"a":1,}',
      '[1,]',
      '01',
      '1.',
      '.5',
      '-',
      '+1',
      '{"a"}',
      '{a:1}',
      "{'a':1}",
      '[',
      ']',
      '{"a":1}}',
      'tru',
      'nul',
      'truex',
      '"\\x"',
      '"\\u12g4"',
      '"a\nb"',
      '"a\tb"',
      '\uFEFF{}',
      '{"a":1} x',
      '[1 2]',
      '{"a" 1}',
      '1 2',
      '  ',
      '',
      '[-]',
      '[1e]',
      '{"a":tru}',
      'NaN',
      'Infinity',
      '[1,,2]',
      '{"a":1 "b":2}',
      '"unterminated',
    ];
    for (const text of cases) expect(accepts(text), JSON.stringify(text)).toBe(parses(text));
  });

  it('accepts every document fast-check generates', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(accepts(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse after random insertions and deletions', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ minLength: 1, maxLength: 2 }), (json, position, insert) => {
        const at = position % (json.length + 1);
        const text = json.slice(0, at) + insert + json.slice(at);
        expect(accepts(text), JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), (json, position) => {
        const at = position % json.length;
        const text = json.slice(0, at) + json.slice(at + 1);
        expect(accepts(text), JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('validates bodies larger than the 64 KiB chunk the core streams through', () => {
    const big = JSON.stringify({
      items: Array.from({ length: 20_000 }, (_, i) => ({ name: `тест ${i}`, q: i * 1.5, ok: i % 2 === 0, n: null })),
    });
    expect(big.length).toBeGreaterThan(200_000);
    expect(accepts(big)).toBe(true);
    expect(accepts(big.slice(0, -1))).toBe(false);
  });

  it('says at which byte the text stopped being JSON, without quoting it', () => {
    expect(() => verifier.getToken('{"card":"4000",}')).toThrow(/invalid at byte 15\)$/);
  });

  it('refuses nesting deeper than 1024 levels', () => {
    expect(accepts('['.repeat(1024) + ']'.repeat(1024))).toBe(true);
    expect(accepts('['.repeat(1025) + ']'.repeat(1025))).toBe(false);
  });
});
