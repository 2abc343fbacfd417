import { describe, expect, it } from 'vitest';
import type { VerifierConfig } from '../../adapters/node/config.js';
import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import { deriveCardKey, generateBarcode } from '../../src/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../support/fixtures.js';

/** What every backend and adapter must offer the shared suite. */
export interface VerificationTarget {
  barcodeVerify(fullBarcode: string): Promise<BarcodeVerification>;
  getToken(requestData: string): Promise<string>;
  close(): Promise<void>;
  /**
   * True when every call comes from one requester (a till of a transport):
   * a barcode asked about twice then gets the first answer with `repeated: true`.
   */
  sameRequester?: boolean;
}

/** Builds a target for a verifier config (with `clock` set by the suite). */
export type TargetFactory = (config: VerifierConfig) => Promise<VerificationTarget>;

const CARD = '4000123412341234';
const SESSION = 'AB12CD34';
const STEP = 30_000;

function barcode(overrides: Partial<Parameters<typeof generateBarcode>[0]> = {}, config: Partial<VerifierConfig> = {}): string {
  const algorythm = (config.algorythm ?? BASE_CONFIG.algorythm) as 'HMACSHA256' | 'HMACSHA1';
  const cardNumber = overrides.cardNumber ?? CARD;
  return generateBarcode({
    ...BASE_CONFIG, ...config, cardNumber, cardKey: deriveCardKey(PARTNER_KEY, cardNumber, algorythm),
    cardSession: SESSION, at: NOW, ...overrides,
  } as Parameters<typeof generateBarcode>[0]);
}

/** Replaces the password (the last part) of a barcode. */
function withPassword(code: string, password: string): string {
  return code.slice(0, code.lastIndexOf(';') + 1) + password;
}

/** The password part of a barcode. */
function passwordOf(code: string): string {
  return code.slice(code.lastIndexOf(';') + 1);
}

function otherDigits(password: string): string {
  return [...password].map((d) => String((Number(d) + 5) % 10)).join('');
}

/**
 * The behaviour every backend (wasm, native) and adapter (embedding, bridge,
 * HTTP) must show: the rows of section 2.2, the window, replay, lockout and
 * hostile input, all through the target's own interface.
 */
export function verificationSuite(name: string, makeTarget: TargetFactory): void {
  describe(`${name}: barcode verification`, () => {
    async function withTarget(config: Partial<VerifierConfig>, run: (t: VerificationTarget) => Promise<void>): Promise<void> {
      const target = await makeTarget({ ...BASE_CONFIG, clock: () => NOW, ...config } as VerifierConfig);
      try {
        await run(target);
      } finally {
        await target.close();
      }
    }

    it('answers CARDSESSION_AVAILABLE with card and session when the password is valid and a session is present', async () => {
      await withTarget({}, async (t) => {
        const code = barcode();
        expect(await t.barcodeVerify(code)).toEqual({
          resultCode: 'CARDSESSION_AVAILABLE', totpCodeValid: true, cardNumber: CARD, cardSession: SESSION,
          fullBarcode: code, reason: 'OK',
        });
      });
    });

    it('answers CARDSESSION_NOT_AVAILABLE with the card and no session when the session part is empty', async () => {
      await withTarget({}, async (t) => {
        const code = barcode({ cardSession: undefined });
        expect(code).toMatch(/^CM;4000123412341234;;\d{8}$/);
        expect(await t.barcodeVerify(code)).toEqual({
          resultCode: 'CARDSESSION_NOT_AVAILABLE', totpCodeValid: true, cardNumber: CARD, cardSession: null,
          fullBarcode: code, reason: 'OK',
        });
      });
    });

    it('accepts the three-part form without a session field', async () => {
      await withTarget({}, async (t) => {
        const code = barcode({ cardSession: undefined }).replace(';;', ';');
        const result = await t.barcodeVerify(code);
        expect(result.resultCode).toBe('CARDSESSION_NOT_AVAILABLE');
        expect(result.cardNumber).toBe(CARD);
      });
    });

    it('answers ANOTHER_INSTANCE with nulls when the prefix differs or is absent', async () => {
      await withTarget({}, async (t) => {
        const valid = barcode();
        for (const code of ['XX' + valid.slice(2), valid.slice(3), 'CMX' + valid.slice(2), 'C' + valid.slice(2), '', '4000123412341234']) {
          expect(await t.barcodeVerify(code), code).toEqual({
            resultCode: 'ANOTHER_INSTANCE', totpCodeValid: false, cardNumber: null, cardSession: null,
            fullBarcode: code, reason: 'PREFIX_MISMATCH',
          });
        }
      });
    });

    it('answers VALIDATION_FAILED with the card number when the password is wrong', async () => {
      await withTarget({}, async (t) => {
        const code = withPassword(barcode(), otherDigits(passwordOf(barcode())));
        expect(await t.barcodeVerify(code)).toEqual({
          resultCode: 'VALIDATION_FAILED', totpCodeValid: false, cardNumber: CARD, cardSession: null,
          fullBarcode: code, reason: 'CODE_MISMATCH',
        });
      });
    });

    it('refuses a password spliced from a barcode of another session', async () => {
      await withTarget({}, async (t) => {
        const other = barcode({ cardSession: 'ZZ99YY88' });
        const spliced = withPassword(barcode(), passwordOf(other));
        expect((await t.barcodeVerify(spliced)).reason).toBe('CODE_MISMATCH');
      });
    });

    it('accepts the steps T-1 and T+1 and refuses T-2 and T+2 with window 1', async () => {
      await withTarget({ replay: false }, async (t) => {
        for (const [delta, reason] of [[-STEP, 'OK'], [STEP, 'OK'], [-2 * STEP, 'CODE_MISMATCH'], [2 * STEP, 'CODE_MISMATCH']] as const) {
          expect((await t.barcodeVerify(barcode({ at: NOW + delta }))).reason, `step ${delta / STEP}`).toBe(reason);
        }
      });
    });

    it('accepts only the present step with window 0', async () => {
      await withTarget({ window: 0, replay: false }, async (t) => {
        expect((await t.barcodeVerify(barcode())).reason).toBe('OK');
        expect((await t.barcodeVerify(barcode({ at: NOW - STEP }))).reason).toBe('CODE_MISMATCH');
      });
    });

    it('refuses a replayed barcode while it could still be valid', async () => {
      await withTarget({}, async (t) => {
        const code = barcode();
        const first = await t.barcodeVerify(code);
        expect(first.resultCode).toBe('CARDSESSION_AVAILABLE');
        if (t.sameRequester) expect(await t.barcodeVerify(code)).toEqual({ ...first, repeated: true });
        else expect(await t.barcodeVerify(code)).toMatchObject({ resultCode: 'VALIDATION_FAILED', reason: 'REPLAYED', cardNumber: CARD, totpCodeValid: false });
      });
    });

    it('accepts a barcode twice when replay protection is off', async () => {
      await withTarget({ replay: false }, async (t) => {
        const code = barcode();
        expect((await t.barcodeVerify(code)).reason).toBe('OK');
        expect((await t.barcodeVerify(code)).reason).toBe('OK');
      });
    });

    it('locks a card after maxFailures wrong passwords and unlocks it after the cool-down', async () => {
      let now = NOW;
      await withTarget({ clock: () => now, lockout: { maxFailures: 3, coolDownSeconds: 120 } }, async (t) => {
        const wrong = withPassword(barcode(), otherDigits(passwordOf(barcode())));
        for (let i = 0; i < 3; i++) expect((await t.barcodeVerify(wrong)).reason).toBe('CODE_MISMATCH');
        expect(await t.barcodeVerify(barcode())).toMatchObject({ resultCode: 'VALIDATION_FAILED', reason: 'LOCKED', cardNumber: CARD });
        const otherCard = barcode({ cardNumber: '4000999988887777' });
        expect((await t.barcodeVerify(otherCard)).reason).toBe('OK');
        now += 121_000;
        expect((await t.barcodeVerify(barcode({ at: now }))).reason).toBe('OK');
      });
    });

    it('resets the failure count after a success', async () => {
      await withTarget({ replay: false, lockout: { maxFailures: 3, coolDownSeconds: 120 } }, async (t) => {
        const wrong = withPassword(barcode(), otherDigits(passwordOf(barcode())));
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < 2; i++) expect((await t.barcodeVerify(wrong)).reason).toBe('CODE_MISMATCH');
          expect((await t.barcodeVerify(barcode())).reason).toBe('OK');
        }
      });
    });

    it('never throws and answers VALIDATION_FAILED or ANOTHER_INSTANCE on malformed input', async () => {
      await withTarget({}, async (t) => {
        const valid = barcode();
        const password = passwordOf(valid);
        const cases: Array<[string, string, string | null]> = [
          ['CM', 'VALIDATION_FAILED', null],
          ['CM;', 'VALIDATION_FAILED', null],
          ['CM;4000123412341234', 'VALIDATION_FAILED', CARD],
          [`${valid};extra`, 'VALIDATION_FAILED', CARD],
          [`CM;;AB12CD34;${password}`, 'VALIDATION_FAILED', null],
          [`CM;4000123412341234;AB12CD34;${password}0`, 'VALIDATION_FAILED', CARD],
          [`CM;4000123412341234;AB12CD34;${password.slice(1)}`, 'VALIDATION_FAILED', CARD],
          [`CM;4000123412341234;AB12CD34;${password.slice(0, 7)}x`, 'VALIDATION_FAILED', CARD],
          [`CM;4000123412341234;AB12CD3;${password}`, 'VALIDATION_FAILED', CARD],
          [`CM;4000123412341234;AB12CD3!;${password}`, 'VALIDATION_FAILED', CARD],
          [`CM;40001234Ж12341234;AB12CD34;${password}`, 'VALIDATION_FAILED', null],
          [`CM;4000123412341234;AB12CD34;${password.slice(0, 6)}😀`, 'VALIDATION_FAILED', CARD],
          [`CM;${'1'.repeat(65)};AB12CD34;${password}`, 'VALIDATION_FAILED', null],
          [`CM;4000123412341234;AB12CD34;${password}\u0000`, 'VALIDATION_FAILED', CARD],
          [`CM;${'9'.repeat(10_000)}`, 'VALIDATION_FAILED', null],
          [`CM;4000123412341234;${'A'.repeat(10_000)};${password}`, 'VALIDATION_FAILED', CARD],
          ['C'.repeat(10_000), 'ANOTHER_INSTANCE', null],
          ['😀'.repeat(5_000), 'ANOTHER_INSTANCE', null],
          [';;;', 'ANOTHER_INSTANCE', null],
        ];
        for (const [code, resultCode, cardNumber] of cases) {
          const result = await t.barcodeVerify(code);
          expect(result, code.slice(0, 60)).toMatchObject({ resultCode, cardNumber, cardSession: null, totpCodeValid: false, fullBarcode: code });
        }
      });
    });

    it('verifies HMACSHA1 barcodes, other lengths and a multi-character delimiter', async () => {
      const config = { algorythm: 'HMACSHA1', passLength: 10, cardSessionLength: 12, delimeter: '||', prefix: 'WALLET' } as const;
      await withTarget(config, async (t) => {
        const code = barcode({ cardSession: 'abcDEF123456' }, config);
        expect(code.startsWith('WALLET||')).toBe(true);
        expect(await t.barcodeVerify(code)).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', cardSession: 'abcDEF123456' });
        expect((await t.barcodeVerify(code.replace('WALLET||', 'CM||'))).resultCode).toBe('ANOTHER_INSTANCE');
      });
    });

    it('returns a token for JSON request data and refuses text that is not JSON', async () => {
      await withTarget({}, async (t) => {
        const token = await t.getToken('{"requestId":"r-1","totalAmount":1000}');
        expect(token).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]{43}$/);
        await expect(t.getToken('{"requestId":')).rejects.toMatchObject({ code: 'REQUEST_DATA_INVALID' });
      });
    });
  });
}
