import { describe, expect, it } from 'vitest';
import { checkedToken, hmacToken, signerThrew } from '../../../adapters/node/token-scheme.js';
import { createVerifier } from '../../../src/entries/index.js';
import { ConfigError, TokenSignerError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';

// RFC 4231, test case 1.
const RFC_KEY = Buffer.alloc(20, 0x0b);
const RFC_MAC = 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7';

describe('hmacToken', () => {
  it('is HMAC-SHA256 in lower-case hex for hmac-sha256-hex', () => {
    expect(hmacToken('hmac-sha256-hex', RFC_KEY, 'Hi There')).toBe(RFC_MAC);
  });

  it('is the same MAC in standard base64 for hmac-sha256-base64', () => {
    expect(hmacToken('hmac-sha256-base64', RFC_KEY, 'Hi There')).toBe(Buffer.from(RFC_MAC, 'hex').toString('base64'));
  });

  it('signs the UTF-8 bytes of the body text', () => {
    const body = '{"name":"Молоко"}';
    expect(hmacToken('hmac-sha256-hex', RFC_KEY, body)).not.toBe(hmacToken('hmac-sha256-hex', RFC_KEY, 'x'));
    expect(hmacToken('hmac-sha256-hex', RFC_KEY, body)).toHaveLength(64);
  });
});

describe('checkedToken', () => {
  it('passes a printable string through', () => {
    expect(checkedToken('sign', 'abc 123')).toBe('abc 123');
  });

  it.each([
    [undefined, /answered undefined, not a string/],
    [42, /answered a number/],
    [Promise.resolve('x'), /answered a promise/],
    ['', /printable ASCII/],
    ['a\r\nX-Injected: 1', /printable ASCII/],
  ])('refuses %s with a TokenSignerError naming the signer', (value, message) => {
    const error = (() => {
      try {
        checkedToken('module ./sign.mjs', value);
      } catch (e) {
        return e as TokenSignerError;
      }
    })();
    expect(error).toBeInstanceOf(TokenSignerError);
    expect(error).toMatchObject({ code: 'TOKEN_SIGNER_FAILED', signer: 'module ./sign.mjs' });
    expect(error!.message).toMatch(message);
    expect(error!.message).toContain('module ./sign.mjs');
  });
});

describe('signerThrew', () => {
  it("names the error's class, never its message", () => {
    const error = signerThrew('sign', new RangeError('key 0011 too short'));
    expect(error.message).toBe('the token signer (sign) threw RangeError');
    expect(error.cause).toBeInstanceOf(RangeError);
  });
});

describe('createVerifier, token', () => {
  const config = { ...BASE_CONFIG, backend: 'wasm' as const, clock: () => NOW };

  it("signs with the kit's JWS by default", async () => {
    const verifier = createVerifier(config);
    expect(verifier.tokenScheme).toBe('kit');
    expect(verifier.getToken('{}').split('.')).toHaveLength(3);
    await verifier.close();
  });

  it('signs with HMAC-SHA256 over the body bytes, keyed with the key bytes, under an hmac scheme', async () => {
    const verifier = createVerifier({ ...config, token: { scheme: 'hmac-sha256-hex' } });
    const key = Buffer.from(BASE_CONFIG.key, 'hex');
    expect(verifier.tokenScheme).toBe('hmac-sha256-hex');
    expect(verifier.getToken('{"a":1}')).toBe(hmacToken('hmac-sha256-hex', key, '{"a":1}'));
    await verifier.close();
  });

  it('gives a sign function the body text and the key in hex', async () => {
    const seen: string[][] = [];
    const verifier = createVerifier({
      ...config,
      token: {
        sign: (text, keyHex) => {
          seen.push([text, keyHex]);
          return `t-${text.length}`;
        },
      },
    });
    expect(verifier.getToken('{"b":2}')).toBe('t-7');
    expect(seen).toEqual([['{"b":2}', BASE_CONFIG.key]]);
    expect(verifier.tokenScheme).toBe('sign');
    await verifier.close();
  });

  it('answers TOKEN_SIGNER_FAILED when the sign function throws or answers no string', async () => {
    const throwing = createVerifier({
      ...config,
      token: {
        sign: () => {
          throw new Error('boom');
        },
      },
    });
    const numeric = createVerifier({ ...config, token: { sign: () => 7 as unknown as string } });
    expect(() => throwing.getToken('{}')).toThrow(TokenSignerError);
    expect(() => numeric.getToken('{}')).toThrow(/\(sign\) answered a number/);
    await throwing.close();
    await numeric.close();
  });

  it('refuses an unknown scheme at creation', () => {
    expect(() => createVerifier({ ...config, token: { scheme: 'rsa' as never } })).toThrow(ConfigError);
  });
});
