import { describe, expect, it } from 'vitest';
import { ConfigError, LockoutError } from '../../../src/errors.js';
import { addressKey, FailureLimiter } from '../../../src/guard/index.js';
import { testClock } from '../../support/clock.js';

const A = '203.0.113.7';
const B = '198.51.100.9';

function limiter(options: ConstructorParameters<typeof FailureLimiter>[0] = {}) {
  const time = testClock(0);
  return { time, limiter: new FailureLimiter({ clock: time.now, ...options }) };
}

describe('FailureLimiter', () => {
  describe('defaults', () => {
    it('locks an address out after 50 failures for 5 minutes', () => {
      const { limiter: l, time } = limiter();
      for (let i = 0; i < 49; i++) expect(l.failed(A, `login-${i}`)).toBeUndefined();
      expect(l.check(A)).toBeUndefined();
      expect(l.failed(A, 'login-49')).toEqual({ scope: 'address', address: A, retryAfterSeconds: 300 });
      const refusal = l.check(A);
      expect(refusal).toBeInstanceOf(LockoutError);
      expect(refusal).toMatchObject({ code: 'TOO_MANY_REQUESTS', scope: 'address', retryAfterSeconds: 300 });
      expect(l.check(B)).toBeUndefined();
      time.set(300_000);
      expect(l.check(A)).toBeUndefined();
    });

    it('locks a credential out for new addresses after 10 failures', () => {
      const { limiter: l } = limiter();
      for (let i = 0; i < 9; i++) l.failed(`10.0.0.${i}`, 'acme');
      expect(l.failed('10.0.0.9', 'acme')).toMatchObject({
        scope: 'credential',
        credential: 'acme',
        retryAfterSeconds: 300,
      });
      expect(l.check(B, 'acme')).toMatchObject({ scope: 'credential' });
      expect(l.check(B, 'other-login')).toBeUndefined();
      expect(l.check(B)).toBeUndefined();
      expect(l.lockouts).toBe(1);
    });
  });

  it('starts a new window once the old one is over', () => {
    const { limiter: l, time } = limiter({ perAddress: { maxFailures: 3, windowMs: 1000 } });
    l.failed(A);
    l.failed(A);
    time.set(1000);
    expect(l.failed(A)).toBeUndefined();
    expect(l.failed(A)).toBeUndefined();
    expect(l.failed(A)).toMatchObject({ scope: 'address', retryAfterSeconds: 1 });
  });

  it('tells the first failure of an address in each window, and no other', () => {
    const { limiter: l, time } = limiter({ perAddress: { maxFailures: 10, windowMs: 1000 } });
    const firsts: boolean[] = [];
    for (const at of [0, 10, 20, 1000, 1010]) {
      time.set(at);
      l.failed(A);
      firsts.push(l.firstFailureOf(A));
    }
    l.failed(B);
    expect(firsts).toEqual([true, false, false, true, false]);
    expect(l.firstFailureOf(B)).toBe(true);
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const { limiter: l, time } = limiter({ perAddress: { maxFailures: 1, windowMs: 1000, lockoutMs: 2500 } });
    l.failed(A);
    expect(l.check(A)?.retryAfterSeconds).toBe(3);
    time.set(2499);
    expect(l.check(A)?.retryAfterSeconds).toBe(1);
    time.set(2500);
    expect(l.check(A)).toBeUndefined();
  });

  it('never resets an address count on success, so a valid credential earns no guesses at others', () => {
    const { limiter: l } = limiter({ perAddress: { maxFailures: 3, windowMs: 60_000 } });
    l.failed(A, 'x');
    l.failed(A, 'y');
    l.succeeded(A, 'mine');
    expect(l.failed(A, 'z')).toMatchObject({ scope: 'address' });
  });

  it('lets a trusted address try a locked credential, and a success there does not end the lockout for others', () => {
    const { limiter: l, time } = limiter({ perCredential: { maxFailures: 2, windowMs: 60_000 }, trustMs: 3_600_000 });
    l.succeeded(A, 'acme');
    l.failed(B, 'acme');
    l.failed(B, 'acme');
    expect(l.check(A, 'acme')).toBeUndefined();
    l.succeeded(A, 'acme');
    expect(l.check(B, 'acme')).toMatchObject({ scope: 'credential' });
    expect(l.check('192.0.2.1', 'acme')).toMatchObject({ scope: 'credential' });
    time.set(3_600_000); // the trust has run out (and so has the lockout)
    expect(l.check(A, 'acme')).toBeUndefined();
  });

  it('holds at most maxEntries per budget however many addresses and logins fail', () => {
    const { limiter: l } = limiter({ maxEntries: 100, perAddress: { maxFailures: 1000, windowMs: 60_000 } });
    for (let i = 0; i < 10_000; i++) l.failed(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, `login-${i}`);
    // Internal sizes are not public; shedding shows as the oldest counts gone: a fresh count for the first address.
    for (let i = 0; i < 999; i++) expect(l.failed('10.0.0.0')).toBeUndefined();
  });

  it('turns a budget off with false', () => {
    const { limiter: l } = limiter({ perAddress: false, perCredential: false });
    for (let i = 0; i < 1000; i++) expect(l.failed(A, 'acme')).toBeUndefined();
    expect(l.check(A, 'acme')).toBeUndefined();
  });

  it('refuses bad options with ConfigError naming each field', () => {
    expect(() => new FailureLimiter({ perAddress: { maxFailures: 0, windowMs: 1000 } })).toThrow(ConfigError);
    expect(() => new FailureLimiter({ maxEntries: -1 })).toThrow(/maxEntries/);
  });
});

describe('addressKey', () => {
  it('counts an IPv6 address by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(addressKey('192.0.2.4')).toBe('192.0.2.4');
    expect(addressKey(undefined)).toBe('unknown');
  });
});
