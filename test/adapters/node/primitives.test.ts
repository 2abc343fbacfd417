import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveCardKey, hmac, hotp, totp } from '../../../src/entries/index.js';
import { ArgumentError } from '../../../src/errors.js';
import { PARTNER_KEY } from '../../support/fixtures.js';

type Alg = 'HMACSHA1' | 'HMACSHA256';
const ALGS: readonly Alg[] = ['HMACSHA1', 'HMACSHA256'];
const nodeAlg = (alg: Alg) => (alg === 'HMACSHA1' ? 'sha1' : 'sha256');
const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const repeat = (byte: number, length: number) => new Uint8Array(length).fill(byte);

/** RFC 4226 section 5.3 HOTP, written here on top of node:crypto as the reference. */
function referenceHotp(alg: Alg, key: Uint8Array, counter: bigint, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac(nodeAlg(alg), key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  const value = digits === 10 ? binary : binary % 10 ** digits;
  return String(value).padStart(digits, '0');
}

describe('hotp', () => {
  // RFC 4226 Appendix D: secret = ASCII "12345678901234567890", SHA-1, 6 digits.
  const RFC4226 = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  const rfcKey = ascii('12345678901234567890');

  it.each(RFC4226.map((value, counter) => [counter, value] as const))(
    'returns the RFC 4226 Appendix D value when the counter is %i',
    (counter, value) => {
      expect(hotp(rfcKey, counter)).toBe(value);
      expect(hotp(hexOf(rfcKey), BigInt(counter), { algorythm: 'HMACSHA1', digits: 6 })).toBe(value);
    },
  );

  const BIG_COUNTERS: readonly bigint[] = [
    2n ** 31n,
    2n ** 31n + 1n,
    2n ** 32n,
    2n ** 32n + 5n,
    2n ** 53n + 3n,
    2n ** 64n - 1n,
  ];
  const cases = ALGS.flatMap((alg) =>
    BIG_COUNTERS.flatMap((counter) => [6, 8, 9, 10].map((digits) => [alg, counter, digits] as const)),
  );
  const bigKey = ascii('12345678901234567890123456789012');

  it.each(cases)('matches the node:crypto reference when %s, counter %s, %i digits', (alg, counter, digits) => {
    const expected = referenceHotp(alg, bigKey, counter, digits);
    expect(expected).toHaveLength(digits);
    expect(hotp(bigKey, counter, { algorythm: alg, digits })).toBe(expected);
    if (counter <= BigInt(Number.MAX_SAFE_INTEGER)) {
      expect(hotp(hexOf(bigKey), Number(counter), { algorythm: alg, digits })).toBe(expected);
    }
  });

  it('uses the high half of the counter when counters differ only above bit 32', () => {
    // A core that dropped the high word would give the same code for all of these.
    const codes = new Set(
      [0n, 2n ** 32n, 2n ** 40n, 2n ** 63n].map((c) => hotp(bigKey, c, { algorythm: 'HMACSHA256', digits: 10 })),
    );
    expect(codes.size).toBe(4);
  });

  it('matches the node:crypto reference when keys, counters, digits and algorithms are random', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALGS),
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (alg, key, counter, digits, asHex) => {
          const expected = referenceHotp(alg, key, counter, digits);
          expect(hotp(asHex ? hexOf(key) : key, counter, { algorythm: alg, digits })).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('matches the reference when the counter is a small number, as TOTP counters are', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 64 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (key, counter) => {
          expect(hotp(key, counter, { algorythm: 'HMACSHA256', digits: 8 })).toBe(
            referenceHotp('HMACSHA256', key, BigInt(counter), 8),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('totp', () => {
  // RFC 6238 Appendix B: 8 digits, T0 = 0, X = 30 s.
  const seeds: Record<Alg, Uint8Array> = {
    HMACSHA1: ascii('12345678901234567890'),
    HMACSHA256: ascii('12345678901234567890123456789012'),
  };
  const RFC6238: readonly [seconds: number, alg: Alg, value: string][] = [
    [59, 'HMACSHA1', '94287082'],
    [59, 'HMACSHA256', '46119246'],
    [1111111109, 'HMACSHA1', '07081804'],
    [1111111109, 'HMACSHA256', '68084774'],
    [1111111111, 'HMACSHA1', '14050471'],
    [1111111111, 'HMACSHA256', '67062674'],
    [1234567890, 'HMACSHA1', '89005924'],
    [1234567890, 'HMACSHA256', '91819424'],
    [2000000000, 'HMACSHA1', '69279037'],
    [2000000000, 'HMACSHA256', '90698825'],
    [20000000000, 'HMACSHA1', '65353130'],
    [20000000000, 'HMACSHA256', '77737706'],
  ];

  it.each(RFC6238)('returns the RFC 6238 Appendix B value when T = %i s and %s', (seconds, alg, value) => {
    expect(totp(seeds[alg], seconds * 1000, { algorythm: alg, digits: 8, interval: 30 })).toBe(value);
    expect(totp(hexOf(seeds[alg]), seconds * 1000 + 999, { algorythm: alg, digits: 8 })).toBe(value);
  });

  it('uses floor(floor(ms / 1000) / interval) as the counter', () => {
    const key = randomBytes(20);
    const at = 1_700_000_123_456;
    expect(totp(key, at, { interval: 60, digits: 8 })).toBe(
      referenceHotp('HMACSHA1', key, BigInt(Math.floor(1_700_000_123 / 60)), 8),
    );
    expect(totp(key, at, { interval: 1, digits: 8 })).toBe(referenceHotp('HMACSHA1', key, 1_700_000_123n, 8));
  });
});

describe('hmac', () => {
  const k4 = Uint8Array.from({ length: 25 }, (_, i) => i + 1);
  // RFC 2202 section 3: HMAC-SHA-1 test cases 1 to 7.
  const RFC2202: readonly [n: number, key: Uint8Array, data: string | Uint8Array, digest: string][] = [
    [1, repeat(0x0b, 20), 'Hi There', 'b617318655057264e28bc0b6fb378c8ef146be00'],
    [2, ascii('Jefe'), 'what do ya want for nothing?', 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79'],
    [3, repeat(0xaa, 20), repeat(0xdd, 50), '125d7342b9ac11cd91a39af48aa17b4f63f175d3'],
    [4, k4, repeat(0xcd, 50), '4c9007f4026250c6bc8414f9bf50c86c2d7235da'],
    [5, repeat(0x0c, 20), 'Test With Truncation', '4c1a03424b55e07fe7f27be1d58bb9324a9a5a04'],
    [
      6,
      repeat(0xaa, 80),
      'Test Using Larger Than Block-Size Key - Hash Key First',
      'aa4ae5e15272d00e95705637ce8a3b55ed402112',
    ],
    [
      7,
      repeat(0xaa, 80),
      'Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data',
      'e8e99d0f45237d786d6bbaa7965c7808bbff1a91',
    ],
  ];
  // RFC 4231 section 4: HMAC-SHA-256 test cases 1 to 7 (case 5 is truncated to 128 bits).
  const RFC4231: readonly [n: number, key: Uint8Array, data: string | Uint8Array, digest: string][] = [
    [1, repeat(0x0b, 20), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [
      2,
      ascii('Jefe'),
      'what do ya want for nothing?',
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [3, repeat(0xaa, 20), repeat(0xdd, 50), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    [4, k4, repeat(0xcd, 50), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
    [5, repeat(0x0c, 20), 'Test With Truncation', 'a3b6167473100ee06e0c796c2955552b'],
    [
      6,
      repeat(0xaa, 131),
      'Test Using Larger Than Block-Size Key - Hash Key First',
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      7,
      repeat(0xaa, 131),
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be ' +
        'hashed before being used by the HMAC algorithm.',
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];

  it.each(RFC2202)('returns the RFC 2202 digest for HMAC-SHA1 test case %i', (_n, key, data, digest) => {
    const tag = hmac('HMACSHA1', key, data);
    expect(tag).toHaveLength(20);
    expect(hexOf(tag)).toBe(digest);
    expect(hexOf(hmac('HMACSHA1', hexOf(key), typeof data === 'string' ? ascii(data) : data))).toBe(digest);
  });

  it.each(RFC4231)('returns the RFC 4231 digest for HMAC-SHA256 test case %i', (n, key, data, digest) => {
    const tag = hmac('HMACSHA256', key, data);
    expect(tag).toHaveLength(32);
    expect(hexOf(n === 5 ? tag.subarray(0, 16) : tag)).toBe(digest);
  });

  it.each(ALGS)('equals node:crypto when %s signs a 200 kB message', (alg) => {
    const message = randomBytes(200_000);
    const key = randomBytes(32);
    expect(hexOf(hmac(alg, key, message))).toBe(createHmac(nodeAlg(alg), key).update(message).digest('hex'));
    const text = 'кошка 🐈 '.repeat(20_000); // ~260 kB of UTF-8, crosses the 64 KiB IO chunk
    expect(hexOf(hmac(alg, key, text))).toBe(createHmac(nodeAlg(alg), key).update(text, 'utf8').digest('hex'));
  });

  it.each(ALGS)('equals node:crypto when %s gets messages around the 64 KiB chunk size', (alg) => {
    const key = randomBytes(20);
    for (const length of [0, 1, 55, 56, 63, 64, 65, 65535, 65536, 65537, 131072, 131073]) {
      const message = randomBytes(length);
      expect(hexOf(hmac(alg, key, message)), `length ${length}`).toBe(
        createHmac(nodeAlg(alg), key).update(message).digest('hex'),
      );
    }
  });

  it.each(ALGS)('equals node:crypto when %s gets keys longer than 64 bytes', (alg) => {
    for (const length of [63, 64, 65, 100, 128, 129, 500, 1024]) {
      const key = randomBytes(length);
      const expected = createHmac(nodeAlg(alg), key).update('message').digest('hex');
      expect(hexOf(hmac(alg, key, 'message')), `key length ${length}`).toBe(expected);
      expect(hexOf(hmac(alg, hexOf(key), 'message')), `hex key length ${length}`).toBe(expected);
    }
  });
});

describe('argument checks', () => {
  const key = hexOf(ascii('12345678901234567890'));

  function expectArgumentError(run: () => unknown, field: string): void {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ArgumentError);
    const error = caught as ArgumentError;
    expect(error.code).toBe('ARGUMENT_INVALID');
    expect(error.message).toContain(field);
    expect(error.issues.some((issue) => issue.startsWith(`${field}:`))).toBe(true);
  }

  it('throws ArgumentError naming digits when digits is 0', () => {
    expectArgumentError(() => hotp(key, 0, { digits: 0 }), 'digits');
  });

  it('throws ArgumentError naming digits when digits is 11', () => {
    expectArgumentError(() => hotp(key, 0, { digits: 11 }), 'digits');
    expectArgumentError(() => totp(key, 0, { digits: 11 }), 'digits');
  });

  it('throws ArgumentError naming key when the key is not hex', () => {
    expectArgumentError(() => hotp('not-hex!', 0), 'key');
    expectArgumentError(() => hotp('abc', 0), 'key');
    expectArgumentError(() => hmac('HMACSHA256', 'zz', 'data'), 'key');
  });

  it('throws ArgumentError naming counter when the counter is negative', () => {
    expectArgumentError(() => hotp(key, -1), 'counter');
    expectArgumentError(() => hotp(key, -1n), 'counter');
  });

  it('throws ArgumentError naming counter when the counter is 2^64', () => {
    expectArgumentError(() => hotp(key, 2n ** 64n), 'counter');
    expectArgumentError(() => hotp(key, 2 ** 64), 'counter');
  });

  it('accepts the boundary values digits 1 and 10 and counter 2^64-1', () => {
    expect(hotp(key, 0, { digits: 1 })).toMatch(/^\d$/);
    expect(hotp(key, 2n ** 64n - 1n, { digits: 10 })).toMatch(/^\d{10}$/);
  });
});

describe('deriveCardKey', () => {
  const partnerKey = Buffer.from(PARTNER_KEY, 'hex');
  const cards = ['4000123412341234', '1', 'AB-12-cd', '9'.repeat(32) + 'Z'.repeat(31) + '-'];

  it.each(ALGS.flatMap((alg) => cards.map((card) => [alg, card] as const)))(
    'equals HMAC(partnerKey, "card:" + card) when %s derives card %s',
    (alg, card) => {
      const expected = createHmac(nodeAlg(alg), partnerKey).update(`card:${card}`).digest('hex');
      expect(deriveCardKey(PARTNER_KEY, card, alg)).toBe(expected);
    },
  );

  it('uses a 64-character card number whole', () => {
    const card = '1234567890'.repeat(6) + 'ABCD';
    expect(card).toHaveLength(64);
    const changed = card.slice(0, 63) + 'E';
    for (const alg of ALGS) {
      expect(deriveCardKey(PARTNER_KEY, card, alg)).toBe(
        createHmac(nodeAlg(alg), partnerKey).update(`card:${card}`).digest('hex'),
      );
      expect(deriveCardKey(PARTNER_KEY, changed, alg)).not.toBe(deriveCardKey(PARTNER_KEY, card, alg));
    }
  });

  it('equals node:crypto when the partner key is longer than a block', () => {
    const longKey = randomBytes(200);
    for (const alg of ALGS) {
      expect(deriveCardKey(longKey.toString('hex'), '4000', alg)).toBe(
        createHmac(nodeAlg(alg), longKey).update('card:4000').digest('hex'),
      );
    }
  });
});
