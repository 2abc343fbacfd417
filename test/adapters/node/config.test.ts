import { describe, expect, it } from 'vitest';
import { createVerifier, init } from '../../../src/entries/index.js';
import { ConfigError } from '../../../src/errors.js';
import { BASE_CONFIG, PARTNER_KEY } from '../../support/fixtures.js';

function issuesOf(config: unknown): string[] {
  try {
    createVerifier(config as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}

describe('verifier configuration', () => {
  it('names each bad field with a stable message', () => {
    expect(issuesOf({ ...BASE_CONFIG, passLength: 11 })).toEqual(['passLength: must be an integer from 1 to 10']);
    expect(issuesOf({ ...BASE_CONFIG, passLength: 0 })).toEqual(['passLength: must be an integer from 1 to 10']);
    expect(issuesOf({ ...BASE_CONFIG, passLength: 6.5 })).toEqual(['passLength: must be an integer from 1 to 10']);
    expect(issuesOf({ ...BASE_CONFIG, key: 'abcd' })).toEqual(['key: must be hex of at least 16 bytes']);
    expect(issuesOf({ ...BASE_CONFIG, key: 'zz'.repeat(16) })).toEqual(['key: must be hex of at least 16 bytes']);
    expect(issuesOf({ ...BASE_CONFIG, algorythm: 'HMACMD5' })).toEqual(['algorythm: must be HMACSHA256 or HMACSHA1']);
    expect(issuesOf({ ...BASE_CONFIG, interval: 0 })).toEqual(['interval: must be an integer from 1 to 86400']);
    expect(issuesOf({ ...BASE_CONFIG, cardSessionLength: 65 })).toEqual([
      'cardSessionLength: must be an integer from 1 to 64',
    ]);
    expect(issuesOf({ ...BASE_CONFIG, window: 11 })).toEqual(['window: must be an integer from 0 to 10']);
  });

  it('names every bad field at once, and missing ones', () => {
    const issues = issuesOf({ prefix: 'CM', passLength: 99, key: 'nothex' });
    expect(issues).toEqual(
      expect.arrayContaining([
        'algorythm: must be HMACSHA256 or HMACSHA1',
        'passLength: must be an integer from 1 to 10',
        'key: must be hex of at least 16 bytes',
        'interval: must be an integer from 1 to 86400',
        'cardSessionLength: must be an integer from 1 to 64',
      ]),
    );
    expect(issues.some((i) => i.startsWith('delimeter:'))).toBe(true);
  });

  it('never echoes the key in an error message', () => {
    const secretish = 'f'.repeat(31);
    try {
      createVerifier({ ...BASE_CONFIG, key: secretish });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(secretish);
      return;
    }
    throw new Error('expected a ConfigError');
  });

  it('refuses delimiters that card numbers could contain, and a prefix containing the delimiter', () => {
    expect(issuesOf({ ...BASE_CONFIG, delimeter: '-' })[0]).toMatch(/^delimeter: /);
    expect(issuesOf({ ...BASE_CONFIG, delimeter: 'a' })[0]).toMatch(/^delimeter: /);
    expect(issuesOf({ ...BASE_CONFIG, delimeter: '' })[0]).toMatch(/^delimeter: /);
    expect(issuesOf({ ...BASE_CONFIG, prefix: 'C;M' })).toEqual(['prefix: must not contain the delimiter']);
  });

  it('accepts algorithm and delimiter as aliases, and refuses conflicting spellings', () => {
    const { algorythm, delimeter, ...rest } = BASE_CONFIG;
    expect(() => createVerifier({ ...rest, algorithm: algorythm, delimiter: delimeter })).not.toThrow();
    expect(issuesOf({ ...BASE_CONFIG, algorithm: 'HMACSHA1' })).toEqual(['algorithm: conflicts with algorythm']);
  });

  it('refuses unknown fields so typos surface', () => {
    expect(issuesOf({ ...BASE_CONFIG, passlength: 8 })).toEqual(['passlength: unknown field']);
  });

  it('defaults the prefix to CM, and validates lockout and replay options', () => {
    const { prefix: _prefix, ...rest } = BASE_CONFIG;
    expect(() => createVerifier(rest)).not.toThrow();
    expect(issuesOf({ ...BASE_CONFIG, lockout: { maxFailures: 0 } })).toEqual([
      'lockout.maxFailures: must be an integer from 1 to 1000',
    ]);
    expect(issuesOf({ ...BASE_CONFIG, replay: {} })[0]).toMatch(/^replay: /);
    expect(issuesOf({ ...BASE_CONFIG, key: PARTNER_KEY, clock: 5 })[0]).toMatch(/^clock: /);
  });

  it('rejects a bad config in init() too', () => {
    expect(() => init({ ...BASE_CONFIG, passLength: 12 })).toThrow(ConfigError);
  });
});
