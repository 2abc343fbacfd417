import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, deriveCardKey, generateBarcode } from '../../../src/entries/index.js';

const hex = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b).toString('hex'));
const cardNumber = fc.stringMatching(/^[0-9A-Za-z-]{1,64}$/);
const algorythm = fc.constantFrom('HMACSHA256' as const, 'HMACSHA1' as const);

/** A random verifier layout with a card, an optional session and an instant. */
const scenario = fc
  .record({
    key: hex(16, 80),
    algorythm,
    passLength: fc.integer({ min: 1, max: 10 }),
    interval: fc.integer({ min: 1, max: 600 }),
    cardSessionLength: fc.integer({ min: 1, max: 64 }),
    cardNumber,
    withSession: fc.boolean(),
    sessionSeed: fc.stringMatching(/^[0-9A-Za-z]{64}$/),
    // Up to year 2255 and beyond 2^32 steps for 1 s intervals.
    at: fc.integer({ min: 0, max: 9_000_000_000_000 }),
    scheme: fc.constantFrom('rfc6238' as const, 'card-bound' as const),
    /** A key a rotation retired, still accepted; the barcode is made with it when `withPrevious`. */
    previousKey: hex(16, 80),
    withPrevious: fc.boolean(),
  })
  .map((s) => ({ ...s, cardSession: s.withSession ? s.sessionSeed.slice(0, s.cardSessionLength) : undefined }));

/** A digit most of the time (the hard case), else any character, multi-unit graphemes included. */
const replacementChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...'0123456789') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }) },
);

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function layout(s: Scenario) {
  return {
    algorythm: s.algorythm,
    passLength: s.passLength,
    prefix: 'CM',
    key: s.key,
    interval: s.interval,
    cardSessionLength: s.cardSessionLength,
    delimeter: ';',
    scheme: s.scheme,
    previousKeys: [s.previousKey],
  };
}

/** The barcode of the scenario, in its scheme, from the current key or the previous one. */
function barcodeOf(s: Scenario, config: ReturnType<typeof layout>): string {
  const key = s.withPrevious ? s.previousKey : s.key;
  return generateBarcode({
    ...config,
    cardNumber: s.cardNumber,
    cardSession: s.cardSession,
    at: s.at,
    ...(s.scheme === 'card-bound' ? { cardKey: deriveCardKey(key, s.cardNumber, s.algorythm) } : { key }),
  });
}

describe('generateBarcode and barcodeVerify (properties)', () => {
  it(
    'verifies every generated barcode for random schemes, keys, rotations, cards, sessions, times, algorithms and ' +
      'lengths',
    () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const config = layout(s);
          const verifier = createVerifier({ ...config, replay: false, clock: () => s.at });
          const code = barcodeOf(s, config);
          const result = verifier.barcodeVerify(code);
          expect(result).toEqual({
            resultCode: s.cardSession ? 'CARDSESSION_AVAILABLE' : 'CARDSESSION_NOT_AVAILABLE',
            totpCodeValid: true,
            cardNumber: s.cardNumber,
            cardSession: s.cardSession ?? null,
            fullBarcode: code,
            reason: 'OK',
            // A short password of the previous key may be the current key's (tried first) at some step.
            ...(s.withPrevious && s.passLength < 8
              ? { keyIndex: expect.any(Number), driftSteps: expect.any(Number) }
              : {
                  keyIndex: s.withPrevious ? 1 : 0,
                  driftSteps: 0,
                }),
            bonusAvailable: true,
          });
        }),
        { numRuns: 1000 },
      );
    },
  );

  it('refuses the barcode after any single-character change to the password', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), replacementChar, (s, position, replacement) => {
        const config = layout(s);
        // Window 0: with one candidate step, a changed password can never collide with another step's code.
        // One key too: a changed password could be another key's code.
        const verifier = createVerifier({
          ...config,
          previousKeys: [],
          window: 0,
          replay: false,
          lockout: false,
          clock: () => s.at,
        });
        const code = barcodeOf({ ...s, withPrevious: false }, config);
        const at = code.length - s.passLength + (position % s.passLength);
        fc.pre(code[at] !== replacement);
        const tampered = code.slice(0, at) + replacement + code.slice(at + 1);
        const result = verifier.barcodeVerify(tampered);
        expect(result.resultCode).toBe('VALIDATION_FAILED');
        expect(result.totpCodeValid).toBe(false);
        expect(result.reason).toBe(/^[0-9]$/.test(replacement) ? 'CODE_MISMATCH' : 'MALFORMED');
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary strings', () => {
    const verifier = createVerifier({
      algorythm: 'HMACSHA256',
      passLength: 8,
      prefix: 'CM',
      key: '00'.repeat(32),
      interval: 30,
      cardSessionLength: 8,
      delimeter: ';',
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 2000 }),
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string().map((s) => `CM;${s}`),
        ),
        (input) => {
          const result = verifier.barcodeVerify(input);
          expect(['VALIDATION_FAILED', 'ANOTHER_INSTANCE']).toContain(result.resultCode);
          expect(result.fullBarcode).toBe(input);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
