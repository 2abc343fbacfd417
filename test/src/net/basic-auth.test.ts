import { describe, expect, it } from 'vitest';
import { basicAuthHeader, parseBasicAuth, safeEqual } from '../../../src/net/index.js';

describe('parseBasicAuth', () => {
  it('reads the credentials of the header basicAuthHeader writes, colons in the password included', () => {
    expect(parseBasicAuth(basicAuthHeader('acme', 'pa:ss wörd'))).toEqual({ login: 'acme', password: 'pa:ss wörd' });
  });

  it('reads the RFC 7617 example', () => {
    expect(parseBasicAuth('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toEqual({ login: 'Aladdin', password: 'open sesame' });
  });

  it('gives undefined for a missing, other-scheme, malformed or login-less header', () => {
    for (const header of [
      undefined,
      null,
      '',
      'Bearer abc',
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
      `Basic ${Buffer.from(':pw').toString('base64')}`,
      `Basic ${'A'.repeat(5000)}`,
    ]) {
      expect(parseBasicAuth(header)).toBeUndefined();
    }
  });
});

describe('safeEqual', () => {
  it('is true only for equal strings, whatever their lengths', () => {
    expect(safeEqual('secret', 'secret')).toBe(true);
    expect(safeEqual('secret', 'secreT')).toBe(false);
    expect(safeEqual('secret', 'secret-longer')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('parseBasicAuth, given control characters', () => {
  it('refuses a login or password holding NUL or any C0 control, and bytes that are not UTF-8', () => {
    for (const [login, password] of [
      ['a\u0000', 'pw'],
      ['a', 'p\u0000w'],
      ['a\u001b', 'pw'],
      ['a', 'p\tw'],
    ]) {
      expect(parseBasicAuth(basicAuthHeader(login!, password!))).toBeUndefined();
    }
    expect(parseBasicAuth(`Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`)).toBeUndefined();
  });
});
