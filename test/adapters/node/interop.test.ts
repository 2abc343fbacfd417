import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { flattenedVerify } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import { createVerifier, deriveCardKey, generateBarcode, totp, type Verifier } from '../../../src/entries/index.js';
import { RequestDataError } from '../../../src/errors.js';
import { BASE_CONFIG, CARD_BOUND_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';

type Alg = 'HMACSHA1' | 'HMACSHA256';
const ALGS: readonly Alg[] = ['HMACSHA1', 'HMACSHA256'];
const otpauthAlg = (alg: Alg) => (alg === 'HMACSHA1' ? 'SHA1' : 'SHA256');
const encoder = new TextEncoder();

const opened: Verifier[] = [];
function verifier(config: Parameters<typeof createVerifier>[0]): Verifier {
  const v = createVerifier(config) as Verifier;
  opened.push(v);
  return v;
}
afterAll(async () => {
  await Promise.all(opened.map((v) => v.close()));
});

const nativeLoads = !(loadNativeBackend() instanceof Error);
const BACKENDS = nativeLoads ? (['wasm', 'native'] as const) : (['wasm'] as const);

describe('rfc6238 (the default scheme): a password otpauth makes from the partner key', () => {
  const card = '4000123412341234';
  // Counters: today's, and past 2^32 for both intervals.
  const instants = (interval: number) => [NOW, (2 ** 32 + 7) * interval * 1000 + 1_234];
  const cases = BACKENDS.flatMap((backend) =>
    ALGS.flatMap((alg) =>
      [6, 7, 8, 9, 10].flatMap((digits) =>
        [30, 60].flatMap((interval) => instants(interval).map((now) => [backend, alg, digits, interval, now] as const)),
      ),
    ),
  );

  it.each(cases)(
    'verifies on %s when %s, %i digits, interval %i, now %i, at T-1, T and T+1',
    (backend, alg, digits, interval, now) => {
      const otp = new OTPAuth.TOTP({
        algorithm: otpauthAlg(alg),
        digits,
        period: interval,
        secret: OTPAuth.Secret.fromHex(PARTNER_KEY),
      });
      const config = { ...BASE_CONFIG, algorythm: alg, passLength: digits, interval, backend, clock: () => now };
      const v = verifier({ ...config, replay: false });
      const cardBound = verifier({ ...config, scheme: 'card-bound', replay: false });
      for (const drift of [-1, 0, 1]) {
        const code = otp.generate({ timestamp: now + drift * interval * 1000 });
        expect(code).toMatch(new RegExp(`^\\d{${digits}}$`));
        const barcode = `CM;${card};AB12CD34;${code}`;
        expect(v.barcodeVerify(barcode), `T${drift >= 0 ? '+' : ''}${drift}`).toEqual({
          resultCode: 'CARDSESSION_AVAILABLE',
          totpCodeValid: true,
          cardNumber: card,
          cardSession: 'AB12CD34',
          fullBarcode: barcode,
          reason: 'OK',
          keyIndex: 0,
          driftSteps: drift,
          bonusAvailable: true,
        });
        expect(
          generateBarcode({ ...config, cardNumber: card, cardSession: 'AB12CD34', at: now + drift * interval * 1000 }),
        ).toBe(barcode);
        // Under card-bound the same password is refused (but for a 1 in 10^digits coincidence, below 10^-5 here).
        expect(cardBound.barcodeVerify(barcode).reason).toBe('CODE_MISMATCH');
      }
    },
  );

  it.each(BACKENDS)('refuses on %s a password of T-2 and T+2 with window 1', (backend) => {
    const otp = new OTPAuth.TOTP({
      algorithm: 'SHA256',
      digits: 8,
      period: 30,
      secret: OTPAuth.Secret.fromHex(PARTNER_KEY),
    });
    const v = verifier({ ...BASE_CONFIG, backend, clock: () => NOW });
    for (const drift of [-2, 2]) {
      expect(v.barcodeVerify(`CM;${card};;${otp.generate({ timestamp: NOW + drift * 30_000 })}`).reason).toBe(
        'CODE_MISMATCH',
      );
    }
  });

  it.each(BACKENDS)('verifies on %s an otpauth password of a previous key with keyIndex 1', (backend) => {
    const old = 'c0'.repeat(20);
    const code = new OTPAuth.TOTP({
      algorithm: 'SHA256',
      digits: 8,
      period: 30,
      secret: OTPAuth.Secret.fromHex(old),
    }).generate({ timestamp: NOW });
    const v = verifier({ ...BASE_CONFIG, backend, previousKeys: [old], clock: () => NOW });
    expect(v.barcodeVerify(`CM;${card};;${code}`)).toMatchObject({ reason: 'OK', keyIndex: 1, driftSteps: 0 });
    expect(verifier({ ...BASE_CONFIG, backend, clock: () => NOW }).barcodeVerify(`CM;${card};;${code}`).reason).toBe(
      'CODE_MISMATCH',
    );
  });
});

describe('card-bound barcodes interoperate with otpauth (TOTP of the card key)', () => {
  const card = '4000123412341234';
  const times = [NOW, NOW + 29_999, 1_111_111_111_000, 20_000_000_000_000];
  const cases = ALGS.flatMap((alg) => [4, 6, 8, 10].flatMap((digits) => times.map((at) => [alg, digits, at] as const)));

  it.each(cases)('accepts an otpauth code when %s, %i digits, T = %i', (alg, digits, at) => {
    const cardKey = deriveCardKey(PARTNER_KEY, card, alg);
    const otp = new OTPAuth.TOTP({
      algorithm: otpauthAlg(alg),
      digits,
      period: BASE_CONFIG.interval,
      secret: OTPAuth.Secret.fromHex(cardKey),
    });
    const code = otp.generate({ timestamp: at });
    expect(code).toMatch(new RegExp(`^\\d{${digits}}$`));

    const barcode = `CM;${card};;${code}`;
    const result = verifier({
      ...CARD_BOUND_CONFIG,
      algorythm: alg,
      passLength: digits,
      clock: () => at,
    }).barcodeVerify(barcode);
    expect(result).toEqual({
      resultCode: 'CARDSESSION_NOT_AVAILABLE',
      totpCodeValid: true,
      cardNumber: card,
      cardSession: null,
      fullBarcode: barcode,
      reason: 'OK',
      keyIndex: 0,
      driftSteps: 0,
      bonusAvailable: true,
    });
    expect(
      generateBarcode({ ...CARD_BOUND_CONFIG, algorythm: alg, passLength: digits, cardNumber: card, cardKey, at }),
    ).toBe(barcode);
  });

  it.each(ALGS)('accepts an otpauth code when %s and the interval is 60 s', (alg) => {
    const cardKey = deriveCardKey(PARTNER_KEY, card, alg);
    const code = new OTPAuth.TOTP({
      algorithm: otpauthAlg(alg),
      digits: 8,
      period: 60,
      secret: OTPAuth.Secret.fromHex(cardKey),
    }).generate({ timestamp: NOW });
    const result = verifier({ ...CARD_BOUND_CONFIG, algorythm: alg, interval: 60, clock: () => NOW }).barcodeVerify(
      `CM;${card};;${code}`,
    );
    expect(result.resultCode).toBe('CARDSESSION_NOT_AVAILABLE');
    expect(result.totpCodeValid).toBe(true);
  });

  it.each(ALGS)('refuses an otpauth code when %s and the code is from another card key', (alg) => {
    const otherKey = deriveCardKey(PARTNER_KEY, '4000999999999999', alg);
    const code = new OTPAuth.TOTP({
      algorithm: otpauthAlg(alg),
      digits: 8,
      period: 30,
      secret: OTPAuth.Secret.fromHex(otherKey),
    }).generate({ timestamp: NOW });
    const result = verifier({ ...CARD_BOUND_CONFIG, algorythm: alg, clock: () => NOW }).barcodeVerify(
      `CM;${card};;${code}`,
    );
    expect(result).toMatchObject({ resultCode: 'VALIDATION_FAILED', totpCodeValid: false, reason: 'CODE_MISMATCH' });
  });

  it('refuses an otpauth code when it is from a step outside the window', () => {
    const cardKey = deriveCardKey(PARTNER_KEY, card, 'HMACSHA256');
    const code = new OTPAuth.TOTP({
      algorithm: 'SHA256',
      digits: 8,
      period: 30,
      secret: OTPAuth.Secret.fromHex(cardKey),
    }).generate({ timestamp: NOW - 120_000 });
    const result = verifier({ ...CARD_BOUND_CONFIG, clock: () => NOW }).barcodeVerify(`CM;${card};;${code}`);
    expect(result.totpCodeValid).toBe(false);
  });

  it('makes totp() equal otpauth generate when keys, times, periods and digits are random', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALGS),
        fc.uint8Array({ minLength: 1, maxLength: 100 }),
        fc.integer({ min: 0, max: 2 ** 42 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 10 }),
        (alg, key, at, period, digits) => {
          const hex = Buffer.from(key).toString('hex');
          const expected = OTPAuth.TOTP.generate({
            secret: OTPAuth.Secret.fromHex(hex),
            algorithm: otpauthAlg(alg),
            digits,
            period,
            timestamp: at,
          });
          expect(totp(key, at, { algorythm: alg, digits, interval: period })).toBe(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('getToken interoperates with jose', () => {
  const tokenKey = createHmac('sha256', Buffer.from(PARTNER_KEY, 'hex')).update('token').digest();
  const at = NOW + 789;
  const clock = () => at;
  const plain = verifier({ ...BASE_CONFIG, clock });
  const withKid = verifier({ ...BASE_CONFIG, clock, partnerId: 'partner-42' });

  function split(token: string): { protected: string; signature: string } {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]{43}$/);
    const [header, payload, signature] = token.split('.');
    expect(payload).toBe('');
    return { protected: header!, signature: signature! };
  }

  async function verify(token: string, body: string, key: Uint8Array = tokenKey) {
    const result = await flattenedVerify({ ...split(token), payload: encoder.encode(body) }, key);
    return { payload: result.payload, protectedHeader: result.protectedHeader ?? {} };
  }

  const checkout = JSON.stringify({
    orderId: 'ORD-2026-11-22-000123',
    customer: { cardNumber: '4000123412341234', phone: '+79991234567', email: 'buyer@example.com' },
    items: Array.from({ length: 24 }, (_, i) => ({
      sku: `SKU-${1000 + i}`,
      title: `Товар №${i} «особый»`,
      qty: i + 1,
      price: 199.9 + i,
    })),
    total: 12345.67,
    currency: 'RUB',
  });
  const bigAscii = JSON.stringify({
    rows: Array.from({ length: 8000 }, (_, i) => ({ id: i, name: `row-${i}`, ok: i % 2 === 0 })),
  });
  const bigUtf8 = JSON.stringify({ text: 'Привет, мир! 🎉👍🏽 '.repeat(12_000) });
  const straddle = JSON.stringify('a'.repeat(65_534) + '€😀'.repeat(20_000));
  const bodies: readonly [name: string, body: string][] = [
    ['an empty object', '{}'],
    ['ASCII JSON', '{"amount":100,"currency":"RUB","comment":"thanks"}'],
    ['non-canonical whitespace', ' {\n  "a" : [1, 2.50, true, null]\n}\t'],
    ['Cyrillic and emoji', '{"name":"Иван Петров","note":"спасибо 🎉👍🏽","emoji":"🐈‍⬛"}'],
    ['a 2 kB checkout', checkout],
    ['a 300 kB ASCII JSON', bigAscii],
    ['a 300 kB UTF-8 JSON', bigUtf8],
    ['multi-byte characters straddling 64 KiB', straddle],
  ];

  it('builds bodies of the intended sizes', () => {
    expect(encoder.encode(checkout).length).toBeGreaterThanOrEqual(2000);
    expect(bigAscii.length).toBeGreaterThan(300_000);
    expect(encoder.encode(bigUtf8).length).toBeGreaterThan(300_000);
    expect(encoder.encode(straddle)[65_536]! & 0xc0).toBe(0x80); // byte 65536 is inside a character
  });

  it.each(bodies)('verifies with jose when the body is %s', async (_name, body) => {
    const token = plain.getToken(body);
    const result = await verify(token, body);
    expect(result.protectedHeader).toEqual({
      alg: 'HS256',
      b64: false,
      crit: ['b64'],
      iat: Math.floor(at / 1000),
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(Buffer.from(result.payload).toString('utf8')).toBe(body);
    const parts = split(token);
    const independent = createHmac('sha256', tokenKey)
      .update(`${parts.protected}.`)
      .update(body, 'utf8')
      .digest('base64url');
    expect(parts.signature).toBe(independent);
  });

  it('puts an integer iat equal to floor(clock / 1000) in the header', async () => {
    const state = testClock(NOW + 999);
    const v = verifier({ ...BASE_CONFIG, clock: state.now });
    const first = (await verify(v.getToken('{}'), '{}')).protectedHeader;
    expect(first.iat).toBe(Math.floor((NOW + 999) / 1000));
    expect(Number.isInteger(first.iat)).toBe(true);
    state.set(NOW + 61_001);
    expect((await verify(v.getToken('{}'), '{}')).protectedHeader.iat).toBe(Math.floor((NOW + 61_001) / 1000));
  });

  it('includes kid when partnerId is configured and omits it otherwise', async () => {
    const body = '{"x":1}';
    const withId = await verify(withKid.getToken(body), body);
    expect(withId.protectedHeader.kid).toBe('partner-42');
    expect(withId.protectedHeader).toMatchObject({ alg: 'HS256', b64: false, crit: ['b64'] });
    const without = await verify(plain.getToken(body), body);
    expect(without.protectedHeader).not.toHaveProperty('kid');
  });

  it('escapes a partnerId with quotes and backslashes into a valid kid', async () => {
    const odd = verifier({ ...BASE_CONFIG, clock, partnerId: 'acme"\\x' });
    expect((await verify(odd.getToken('{}'), '{}')).protectedHeader.kid).toBe('acme"\\x');
  });

  it('draws a distinct 16-byte jti for each of 5,000 tokens across random-pool refills', async () => {
    const body = '{"n":1}';
    const tokens = Array.from({ length: 5000 }, () => plain.getToken(body));
    const jtis = tokens.map((token) => {
      const header = JSON.parse(Buffer.from(split(token).protected, 'base64url').toString('utf8')) as { jti: string };
      expect(header.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(header.jti, 'base64url')).toHaveLength(16);
      return header.jti;
    });
    expect(new Set(jtis).size).toBe(5000);
    const headers = await Promise.all(tokens.map((token) => verify(token, body)));
    expect(new Set(headers.map((h) => h.protectedHeader.jti)).size).toBe(5000);
  });

  describe('refusal', () => {
    const body = '{"amount":100,"currency":"RUB"}';
    const token = plain.getToken(body);
    const failure = { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' };

    it('verifies the untouched body, so the refusals below are meaningful', async () => {
      await expect(verify(token, body)).resolves.toBeDefined();
    });

    it('fails when one character of the body is changed', async () => {
      await expect(verify(token, body.replace('100', '900'))).rejects.toMatchObject(failure);
    });

    it('fails when a space is appended to the body', async () => {
      await expect(verify(token, `${body} `)).rejects.toMatchObject(failure);
    });

    it('fails when the token comes from a verifier with another key', async () => {
      const other = verifier({ ...BASE_CONFIG, key: 'ff'.repeat(32), clock });
      await expect(verify(other.getToken(body), body)).rejects.toMatchObject(failure);
    });

    it("fails when the protected header is swapped for another token's", async () => {
      const other = split(plain.getToken(body));
      const forged = `${other.protected}..${split(token).signature}`;
      await expect(verify(forged, body)).rejects.toMatchObject(failure);
    });
  });
});

describe('getToken input checks', () => {
  const v = verifier({ ...BASE_CONFIG, clock: () => NOW });

  it.each(['not json', '{"a":', '', '{"email":"alice@example.com",'])(
    'throws RequestDataError when requestData is %j',
    (input) => {
      let caught: unknown;
      try {
        v.getToken(input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(RequestDataError);
      const error = caught as RequestDataError;
      expect(error.code).toBe('REQUEST_DATA_INVALID');
      if (input !== '') expect(error.message).not.toContain(input);
      expect(error.message).not.toContain('alice');
    },
  );

  it('throws TypeError when requestData is not a string', () => {
    expect(() => v.getToken(123 as unknown as string)).toThrow(TypeError);
    expect(() => v.getToken(undefined as unknown as string)).toThrow(TypeError);
  });
});
