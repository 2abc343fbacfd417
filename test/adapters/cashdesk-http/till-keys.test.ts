import { describe, expect, it, vi } from 'vitest';
import { rememberingAuthenticator } from '../../../adapters/cashdesk-http/till-keys.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { LockoutError } from '../../../src/errors.js';
import { FailureLimiter } from '../../../src/guard/failure-limiter.js';
import { createVerifier } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';

const KEY = 'till-key-0123456789abcdef';

function setUp() {
  const time = testClock(NOW);
  const limiter = new FailureLimiter({
    perAddress: { maxFailures: 3, windowMs: 60_000, lockoutMs: 60_000 },
    clock: time.now,
  });
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: time.now });
  const service = new CashDeskService({
    verifier,
    tills: new TillRegistry([{ id: 'till-1', key: KEY }]),
    bruteForce: limiter,
  });
  const checks = vi.spyOn(service, 'authenticate');
  return {
    authenticate: rememberingAuthenticator(service),
    checks,
    advance: (ms: number) => {
      time.advance(ms);
    },
  };
}

describe('rememberingAuthenticator', () => {
  it('checks a canonical Bearer header once and then answers it from memory', () => {
    const { authenticate, checks } = setUp();
    for (let i = 0; i < 3; i++)
      expect(authenticate(`Bearer ${KEY}`, '/v1/barcode/verify', '10.0.0.1')?.id).toBe('till-1');
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it('admits other spellings of a good key but never keeps them, so no caller can grow the memory', () => {
    const { authenticate, checks } = setUp();
    const spellings = [`bearer ${KEY}`, `Bearer   ${KEY}`, `BEARER ${KEY} `];
    for (const header of [...spellings, ...spellings]) expect(authenticate(header, '/', '10.0.0.1')?.id).toBe('till-1');
    expect(checks).toHaveBeenCalledTimes(spellings.length * 2);
  });

  it('takes the key from ?key= when there is no Authorization header', () => {
    const { authenticate } = setUp();
    expect(authenticate(undefined, `/v1/barcode/verify?key=${KEY}`, '10.0.0.1')?.id).toBe('till-1');
    expect(authenticate(undefined, '/v1/barcode/verify?key=wrong', '10.0.0.1')).toBeUndefined();
  });

  it(
    'refuses a remembered key from an address locked out by wrong keys, and ' + 'admits it again once the lock ends',
    () => {
      const { authenticate, checks, advance } = setUp();
      expect(authenticate(`Bearer ${KEY}`, '/', '10.0.0.9')?.id).toBe('till-1');
      for (let i = 0; i < 3; i++) expect(authenticate('Bearer wrong-key-0123456789', '/', '10.0.0.9')).toBeUndefined();
      expect(() => authenticate(`Bearer ${KEY}`, '/', '10.0.0.9')).toThrow(LockoutError);
      expect(authenticate(`Bearer ${KEY}`, '/', '10.0.0.10')?.id).toBe('till-1'); // only that address is locked
      advance(60_001);
      expect(authenticate(`Bearer ${KEY}`, '/', '10.0.0.9')?.id).toBe('till-1');
      // the first good key and the three wrong ones; every later hit from memory
      expect(checks).toHaveBeenCalledTimes(4);
    },
  );
});
