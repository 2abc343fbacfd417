import { createHmac } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { BonusAnswer, VerifierConfig } from '../../adapters/node/config.js';
import type { BarcodeVerification, PasswordScheme } from '../../src/contracts/barcode.js';
import { deriveCardKey, generateBarcode } from '../../src/entries/index.js';
import type { VerificationStore } from '../../src/stores/store.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../support/fixtures.js';
import { testClock } from '../support/clock.js';

/** What every backend and adapter must offer the shared suite. */
export interface VerificationTarget {
  barcodeVerify(fullBarcode: string): Promise<BarcodeVerification>;
  /**
   * Several barcodes in one call (a batch route or frame), answered in order; targets without one skip the batch cases.
   */
  barcodeVerifyBatch?(fullBarcodes: string[]): Promise<BarcodeVerification[]>;
  getToken(requestData: string): Promise<string>;
  close(): Promise<void>;
  /**
   * True when every call comes from one requester (a till of a transport):
   * a barcode asked about twice then gets the first answer with `repeated: true`.
   */
  sameRequester?: boolean;
}

/** A config of any kind: the suite gives async bonus hooks too, so results may be promises. */
type AnyVerifierConfig = VerifierConfig<VerificationStore | false, BonusAnswer>;

/**
 * Builds a target for a verifier config (with `clock` set by the suite). Typed as the synchronous kind for the
 * harnesses' sake; targets await every answer, so a config whose answers are promises serves them the same.
 */
export type TargetFactory = (config: VerifierConfig) => Promise<VerificationTarget>;

const CARD = '4000123412341234';
const SESSION = 'AB12CD34';
const STEP = 30_000;
/** The key a rotation retired: still accepted for verification, never for tokens. */
const OLD_KEY = 'a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf';
const SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];

type BarcodeOverrides = Partial<{ cardNumber: string; cardSession: string | undefined; at: number; key: string }>;

/** A barcode in `scheme` from `key` (default the partner key): plain TOTP of it, or of the card key derived from it. */
function makeBarcode(
  scheme: PasswordScheme,
  overrides: BarcodeOverrides = {},
  config: Partial<VerifierConfig> = {},
): string {
  const algorythm = (config.algorythm ?? BASE_CONFIG.algorythm) as 'HMACSHA256' | 'HMACSHA1';
  const cardNumber = overrides.cardNumber ?? CARD;
  const key = overrides.key ?? PARTNER_KEY;
  const keyed =
    scheme === 'card-bound' ? { scheme, cardKey: deriveCardKey(key, cardNumber, algorythm) } : { scheme, key };
  return generateBarcode({
    ...BASE_CONFIG,
    ...config,
    cardSession: SESSION,
    at: NOW,
    ...overrides,
    ...keyed,
    cardNumber,
  } as Parameters<typeof generateBarcode>[0]);
}

/**
 * The signature an HS256 token of `body` carries under `partnerKey` (the README's Pay API tokens: tokenKey =
 * HMAC-SHA256(key, "token")).
 */
function signatureUnder(partnerKey: string, token: string, body: string): string {
  const tokenKey = createHmac('sha256', Buffer.from(partnerKey, 'hex')).update('token').digest();
  return createHmac('sha256', tokenKey)
    .update(`${token.split('.')[0]}.`)
    .update(body)
    .digest('base64url');
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
export function verificationSuite(
  name: string,
  makeTarget: TargetFactory,
  { batch = false }: { batch?: boolean } = {},
): void {
  for (const scheme of SCHEMES) schemeSuite(name, scheme, makeTarget, batch);
}

function schemeSuite(name: string, scheme: PasswordScheme, makeTarget: TargetFactory, batch: boolean): void {
  describe(`${name}: barcode verification (${scheme})`, () => {
    const barcode = (overrides: BarcodeOverrides = {}, config: Partial<VerifierConfig> = {}) =>
      makeBarcode(scheme, overrides, config);
    const ok = { keyIndex: 0, driftSteps: 0, bonusAvailable: true };

    async function withTarget(
      config: Partial<AnyVerifierConfig>,
      run: (t: VerificationTarget) => Promise<void>,
    ): Promise<void> {
      const target = await makeTarget({ ...BASE_CONFIG, scheme, clock: () => NOW, ...config } as VerifierConfig);
      try {
        await run(target);
      } finally {
        await target.close();
      }
    }

    it(
      'answers CARDSESSION_AVAILABLE with card and session when the password ' + 'is valid and a session is present',
      async () => {
        await withTarget({}, async (t) => {
          const code = barcode();
          expect(await t.barcodeVerify(code)).toEqual({
            resultCode: 'CARDSESSION_AVAILABLE',
            totpCodeValid: true,
            cardNumber: CARD,
            cardSession: SESSION,
            fullBarcode: code,
            reason: 'OK',
            ...ok,
          });
        });
      },
    );

    it('answers CARDSESSION_NOT_AVAILABLE with the card and no session when the session part is empty', async () => {
      await withTarget({}, async (t) => {
        const code = barcode({ cardSession: undefined });
        expect(code).toMatch(/^CM;4000123412341234;;\d{8}$/);
        expect(await t.barcodeVerify(code)).toEqual({
          resultCode: 'CARDSESSION_NOT_AVAILABLE',
          totpCodeValid: true,
          cardNumber: CARD,
          cardSession: null,
          fullBarcode: code,
          reason: 'OK',
          ...ok,
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

    it('accepts a card number and session of any characters the document allows but the delimiter', async () => {
      await withTarget({}, async (t) => {
        for (const [cardNumber, cardSession] of [
          ['4000 1234_5678.90', 'AB-12_C='],
          ['Карта №7', ' ~!"#$%&'],
          ['x'.repeat(64), '-_=._:/+'],
        ] as const) {
          const code = barcode({ cardNumber, cardSession });
          expect(await t.barcodeVerify(code), code).toMatchObject({
            resultCode: 'CARDSESSION_AVAILABLE',
            totpCodeValid: true,
            cardNumber,
            cardSession,
            reason: 'OK',
          });
        }
      });
    });

    it('answers ANOTHER_INSTANCE with nulls when the prefix differs or is absent', async () => {
      await withTarget({}, async (t) => {
        const valid = barcode();
        for (const code of [
          'XX' + valid.slice(2),
          valid.slice(3),
          'CMX' + valid.slice(2),
          'C' + valid.slice(2),
          '',
          '4000123412341234',
        ]) {
          expect(await t.barcodeVerify(code), code).toEqual({
            resultCode: 'ANOTHER_INSTANCE',
            totpCodeValid: false,
            cardNumber: null,
            cardSession: null,
            fullBarcode: code,
            reason: 'PREFIX_MISMATCH',
          });
        }
      });
    });

    it('answers VALIDATION_FAILED with the card number when the password is wrong', async () => {
      await withTarget({}, async (t) => {
        const code = withPassword(barcode(), otherDigits(passwordOf(barcode())));
        expect(await t.barcodeVerify(code)).toEqual({
          resultCode: 'VALIDATION_FAILED',
          totpCodeValid: false,
          cardNumber: CARD,
          cardSession: null,
          fullBarcode: code,
          reason: 'CODE_MISMATCH',
        });
      });
    });

    if (scheme === 'card-bound') {
      it('refuses a password spliced from a barcode of another session', async () => {
        await withTarget({}, async (t) => {
          const other = barcode({ cardSession: 'ZZ99YY88' });
          const spliced = withPassword(barcode(), passwordOf(other));
          expect((await t.barcodeVerify(spliced)).reason).toBe('CODE_MISMATCH');
        });
      });

      it('refuses the password of another card', async () => {
        await withTarget({}, async (t) => {
          const other = barcode({ cardNumber: '4000999988887777' });
          expect((await t.barcodeVerify(withPassword(barcode(), passwordOf(other)))).reason).toBe('CODE_MISMATCH');
        });
      });

      it('refuses a plain RFC 6238 password of the partner key', async () => {
        await withTarget({}, async (t) => {
          const plain = makeBarcode('rfc6238');
          expect(await t.barcodeVerify(plain)).toMatchObject({
            resultCode: 'VALIDATION_FAILED',
            reason: 'CODE_MISMATCH',
            cardNumber: CARD,
          });
        });
      });
    } else {
      it(
        'accepts one password under any session and card number of its step, replay marks per card (the documented ' +
          'weakness)',
        async () => {
          await withTarget({}, async (t) => {
            const code = barcode();
            expect((await t.barcodeVerify(code)).reason).toBe('OK');
            // Over a transport the same till asking again is a retry: the first answer, repeated.
            expect(await t.barcodeVerify(code)).toMatchObject(
              t.sameRequester ? { reason: 'OK', repeated: true } : { reason: 'REPLAYED' },
            );
            const otherCard = code.replace(CARD, '4000999988887777').replace(SESSION, 'ZZ99YY88');
            expect(await t.barcodeVerify(otherCard)).toMatchObject({
              reason: 'OK',
              cardNumber: '4000999988887777',
              cardSession: 'ZZ99YY88',
            });
          });
        },
      );

      it('accepts a password made by otpauth from the partner key', async () => {
        await withTarget({}, async (t) => {
          const totp = new OTPAuth.TOTP({
            algorithm: 'SHA256',
            digits: 8,
            period: 30,
            secret: OTPAuth.Secret.fromHex(PARTNER_KEY),
          });
          const code = `CM;${CARD};${SESSION};${totp.generate({ timestamp: NOW })}`;
          expect(await t.barcodeVerify(code)).toMatchObject({
            resultCode: 'CARDSESSION_AVAILABLE',
            reason: 'OK',
            ...ok,
          });
        });
      });

      it('refuses a card-bound password', async () => {
        await withTarget({}, async (t) => {
          expect((await t.barcodeVerify(makeBarcode('card-bound'))).reason).toBe('CODE_MISMATCH');
        });
      });
    }

    it('accepts the steps T-1 and T+1 and refuses T-2 and T+2 with window 1', async () => {
      await withTarget({ replay: false }, async (t) => {
        for (const [delta, reason] of [
          [-STEP, 'OK'],
          [STEP, 'OK'],
          [-2 * STEP, 'CODE_MISMATCH'],
          [2 * STEP, 'CODE_MISMATCH'],
        ] as const) {
          expect((await t.barcodeVerify(barcode({ at: NOW + delta }))).reason, `step ${delta / STEP}`).toBe(reason);
        }
      });
    });

    it('says driftSteps -2..2 for a password of that step with window 2', async () => {
      await withTarget({ replay: false, window: 2 }, async (t) => {
        for (const drift of [-2, -1, 0, 1, 2]) {
          expect(await t.barcodeVerify(barcode({ at: NOW + drift * STEP })), `step ${drift}`).toMatchObject({
            reason: 'OK',
            driftSteps: drift,
            keyIndex: 0,
          });
        }
      });
    });

    it('verifies at counters past 2^32 and says the drift there', async () => {
      const far = (2 ** 32 + 5) * STEP + 1_000;
      await withTarget({ clock: () => far, replay: false }, async (t) => {
        for (const drift of [-1, 0, 1]) {
          expect(await t.barcodeVerify(barcode({ at: far + drift * STEP })), `step ${drift}`).toMatchObject({
            reason: 'OK',
            driftSteps: drift,
          });
        }
        expect((await t.barcodeVerify(barcode({ at: far - 2 ** 32 * STEP }))).reason).toBe('CODE_MISMATCH');
      });
    });

    it('accepts a previous key with keyIndex 1 while the current one matches with keyIndex 0', async () => {
      await withTarget({ previousKeys: [OLD_KEY] }, async (t) => {
        expect(await t.barcodeVerify(barcode({ key: OLD_KEY }))).toMatchObject({
          reason: 'OK',
          keyIndex: 1,
          driftSteps: 0,
        });
        expect(await t.barcodeVerify(barcode({ cardNumber: '4000555566667777' }))).toMatchObject({
          reason: 'OK',
          keyIndex: 0,
        });
        expect((await t.barcodeVerify(barcode({ cardNumber: '77', key: 'b0'.repeat(32) }))).reason).toBe(
          'CODE_MISMATCH',
        );
      });
    });

    it('refuses a barcode of a retired key once previousKeys no longer lists it', async () => {
      await withTarget({}, async (t) => {
        expect((await t.barcodeVerify(barcode({ key: OLD_KEY }))).reason).toBe('CODE_MISMATCH');
      });
    });

    it('signs tokens with the current key only when previous keys are configured', async () => {
      await withTarget({ previousKeys: [OLD_KEY] }, async (t) => {
        const body = '{"requestId":"r-1"}';
        const token = await t.getToken(body);
        const signature = token.split('..')[1];
        expect(signature).toBe(signatureUnder(PARTNER_KEY, token, body));
        expect(signature).not.toBe(signatureUnder(OLD_KEY, token, body));
      });
    });

    it('says bonusAvailable from the hook, keeping resultCode as the document says', async () => {
      const blocked = '4000000000000666';
      await withTarget({ bonusAvailable: async (card: string) => card !== blocked }, async (t) => {
        expect(await t.barcodeVerify(barcode())).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          bonusAvailable: true,
        });
        expect(await t.barcodeVerify(barcode({ cardNumber: blocked }))).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          totpCodeValid: true,
          reason: 'OK',
          bonusAvailable: false,
        });
        const wrong = withPassword(
          barcode({ cardNumber: '55' }),
          otherDigits(passwordOf(barcode({ cardNumber: '55' }))),
        );
        expect(await t.barcodeVerify(wrong)).not.toHaveProperty('bonusAvailable');
      });
    });

    it('says bonusAvailable false when the hook throws, and the scan stays valid', async () => {
      await withTarget(
        {
          bonusAvailable: () => {
            throw new Error('loyalty down');
          },
        },
        async (t) => {
          expect(await t.barcodeVerify(barcode({ cardSession: undefined }))).toMatchObject({
            resultCode: 'CARDSESSION_NOT_AVAILABLE',
            totpCodeValid: true,
            bonusAvailable: false,
          });
        },
      );
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
        else
          expect(await t.barcodeVerify(code)).toMatchObject({
            resultCode: 'VALIDATION_FAILED',
            reason: 'REPLAYED',
            cardNumber: CARD,
            totpCodeValid: false,
          });
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
      const time = testClock(NOW);
      await withTarget({ clock: time.now, lockout: { maxFailures: 3, coolDownSeconds: 120 } }, async (t) => {
        const wrong = withPassword(barcode(), otherDigits(passwordOf(barcode())));
        for (let i = 0; i < 3; i++) expect((await t.barcodeVerify(wrong)).reason).toBe('CODE_MISMATCH');
        expect(await t.barcodeVerify(barcode())).toMatchObject({
          resultCode: 'VALIDATION_FAILED',
          reason: 'LOCKED',
          cardNumber: CARD,
        });
        const otherCard = barcode({ cardNumber: '4000999988887777' });
        expect((await t.barcodeVerify(otherCard)).reason).toBe('OK');
        // Lockout is per card in both schemes: under rfc6238 the locked card's password also opens other cards.
        time.advance(121_000);
        expect((await t.barcodeVerify(barcode({ at: time.now() }))).reason).toBe('OK');
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
          [`CM;4000123412341234;AB12CD3\u007f;${password}`, 'VALIDATION_FAILED', CARD],
          [`CM;4000123412341234;AB12CD3é;${password}`, 'VALIDATION_FAILED', CARD],
          [`CM;40001234\u000712341234;AB12CD34;${password}`, 'VALIDATION_FAILED', null],
          [`CM;40001234\u007f12341234;AB12CD34;${password}`, 'VALIDATION_FAILED', null],
          [`CM;${'Ж'.repeat(33)};AB12CD34;${password}`, 'VALIDATION_FAILED', null],
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
          expect(result, code.slice(0, 60)).toMatchObject({
            resultCode,
            cardNumber,
            cardSession: null,
            totpCodeValid: false,
            fullBarcode: code,
          });
        }
      });
    });

    it('verifies HMACSHA1 barcodes, other lengths and a multi-character delimiter', async () => {
      const config = {
        algorythm: 'HMACSHA1',
        passLength: 10,
        cardSessionLength: 12,
        delimeter: '||',
        prefix: 'WALLET',
      } as const;
      await withTarget(config, async (t) => {
        const code = barcode({ cardSession: 'abcDEF123456' }, config);
        expect(code.startsWith('WALLET||')).toBe(true);
        expect(await t.barcodeVerify(code)).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          cardSession: 'abcDEF123456',
        });
        expect((await t.barcodeVerify(code.replace('WALLET||', 'CM||'))).resultCode).toBe('ANOTHER_INSTANCE');
      });
    });

    describe.runIf(batch)('in a batch', () => {
      const verifyBatch = (t: VerificationTarget, codes: string[]) => t.barcodeVerifyBatch!(codes);

      it(
        'answers each barcode in order as a single call would: valid, wrong ' + 'password, other prefix, NUL bytes',
        async () => {
          await withTarget({}, async (t) => {
            const valid = barcode();
            const wrong = withPassword(barcode({ cardNumber: '4000999988887777' }), '00000000');
            const other = 'XX' + valid.slice(2);
            const nul = valid.replace(';', '\u0000;');
            expect(await verifyBatch(t, [valid, wrong, other, nul])).toEqual([
              {
                resultCode: 'CARDSESSION_AVAILABLE',
                totpCodeValid: true,
                cardNumber: CARD,
                cardSession: SESSION,
                fullBarcode: valid,
                reason: 'OK',
                ...ok,
              },
              {
                resultCode: 'VALIDATION_FAILED',
                totpCodeValid: false,
                cardNumber: '4000999988887777',
                cardSession: null,
                fullBarcode: wrong,
                reason: 'CODE_MISMATCH',
              },
              {
                resultCode: 'ANOTHER_INSTANCE',
                totpCodeValid: false,
                cardNumber: null,
                cardSession: null,
                fullBarcode: other,
                reason: 'PREFIX_MISMATCH',
              },
              // The same answer the single call gives this text.
              await t.barcodeVerify(nul),
            ]);
          });
        },
      );

      it('treats a barcode sent twice as a retry or a replay, within one batch and across two', async () => {
        await withTarget({}, async (t) => {
          const code = barcode();
          const [first, second] = await verifyBatch(t, [code, code]);
          expect(first!.reason).toBe('OK');
          const again = t.sameRequester
            ? { ...first, repeated: true }
            : expect.objectContaining({ reason: 'REPLAYED' });
          expect(second).toEqual(again);
          expect(await verifyBatch(t, [code])).toEqual([again]);
        });
      });

      it(
        'counts wrong passwords towards the lockout in order, locking the ' + 'card for the rest of the batch',
        async () => {
          await withTarget({ lockout: { maxFailures: 3, coolDownSeconds: 120 } }, async (t) => {
            const wrong = withPassword(barcode(), otherDigits(passwordOf(barcode())));
            const results = await verifyBatch(t, [wrong, wrong, wrong, barcode()]);
            expect(results.map((r) => r.reason)).toEqual(['CODE_MISMATCH', 'CODE_MISMATCH', 'CODE_MISMATCH', 'LOCKED']);
          });
        },
      );
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
