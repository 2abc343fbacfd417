import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidMsisdn, normalizeMsisdn } from '../../../src/push/sources.js';

/** A number the Push API accepts: 11 to 15 digits, not starting with 0. */
const validMsisdn = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 10, maxLength: 14 }))
  .map(([first, rest]) => `${first}${rest.join('')}`);

/** The same number as people write it: separators between digits, an optional +, blanks around. */
const written = validMsisdn.chain((msisdn) =>
  fc
    .tuple(
      fc.constant(msisdn),
      fc.array(fc.constantFrom('', '', '', ' ', '-', '(', ')', '.', ' - ', '\t'), {
        minLength: msisdn.length,
        maxLength: msisdn.length,
      }),
      fc.boolean(),
      fc.constantFrom('', ' ', '  ', '\t', '\n'),
      fc.constantFrom('', ' ', '\r\n', '\t'),
    )
    .map(([m, seps, plus, before, after]) => ({
      msisdn: m,
      text: `${before}${plus ? '+' : ''}${[...m].map((digit, i) => (i === 0 ? '' : seps[i]) + digit).join('')}${after}`,
    })),
);

const digitsOf = (text: string) => text.replace(/\D/g, '');

describe('normalizeMsisdn', () => {
  it('turns the usual written forms into the Push API form', () => {
    expect(normalizeMsisdn('+7 (999) 123-45-67')).toBe('79991234567');
    expect(normalizeMsisdn(' 7.999.123.45.67 ')).toBe('79991234567');
    expect(normalizeMsisdn('79991234567')).toBe('79991234567');
  });

  it('recovers the number from any written form of it', () => {
    fc.assert(
      fc.property(written, ({ msisdn, text }) => {
        const normalized = normalizeMsisdn(text);
        expect(normalized).toBe(msisdn);
        expect(isValidMsisdn(normalized)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, and keeps the digits of any string in their order without adding one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
        const normalized = normalizeMsisdn(text);
        expect(digitsOf(normalized)).toBe(digitsOf(text));
        expect(normalized).not.toMatch(/^\+/);
      }),
      { numRuns: 500 },
    );
  });

  it(
    'is idempotent on what it accepts, and accepts nothing that holds a ' +
      'character other than digits and separators',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 24 }), (text) => {
          const normalized = normalizeMsisdn(text);
          if (!isValidMsisdn(normalized)) return;
          expect(normalizeMsisdn(normalized)).toBe(normalized);
          expect(text.replace(/[\s\-().]/g, '')).toMatch(/^\+?\d+$/);
        }),
        { numRuns: 500 },
      );
    },
  );
});
