import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/entries/index.js';
import { ConfigError } from '../../../src/errors.js';
import { resolveServeConfig } from '../../../src/server/config.js';

function issuesOf(file: unknown, env: Record<string, string> = {}): string[] {
  try {
    resolveServeConfig(file, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}

describe('resolveServeConfig', () => {
  it('accepts the demo configuration with loopback and port 8080 by default', () => {
    const config = resolveServeConfig(demoConfig, {});
    expect(config.server).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      allowedOrigins: [],
      bodyLimitBytes: 1_048_576,
    });
    expect(config.verifier).toMatchObject({
      window: 1,
      backend: 'auto',
      lockout: { maxFailures: 10, coolDownSeconds: 300 },
    });
  });

  it('builds a whole configuration from the environment', () => {
    const config = resolveServeConfig(undefined, {
      WPK_ALGORYTHM: 'HMACSHA1',
      WPK_PASS_LENGTH: '6',
      WPK_PREFIX: 'ZX',
      WPK_KEY: 'ab'.repeat(16),
      WPK_INTERVAL: '60',
      WPK_CARD_SESSION_LENGTH: '10',
      WPK_DELIMETER: '|',
      WPK_TILLS: 'till-1:key-one-0123456789abc, till-2:key:two:0123456789',
      WPK_PORT: '9000',
      WPK_ALLOWED_ORIGINS: 'https://pos.example, https://pos2.example',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.verifier).toMatchObject({
      algorythm: 'HMACSHA1',
      passLength: 6,
      prefix: 'ZX',
      interval: 60,
      cardSessionLength: 10,
      delimeter: '|',
    });
    expect(config.tills).toEqual([
      { id: 'till-1', key: 'key-one-0123456789abc' },
      { id: 'till-2', key: 'key:two:0123456789' },
    ]);
    expect(config.server).toMatchObject({
      port: 9000,
      allowedOrigins: ['https://pos.example', 'https://pos2.example'],
    });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it(
    'defaults the scheme to rfc6238 with no previous keys, and reads WPK_SCHEME, WPK_PREVIOUS_KEYS and ' +
      'WPK_BONUS_URL',
    () => {
      expect(resolveServeConfig(demoConfig, {}).verifier).toMatchObject({ scheme: 'rfc6238', previousKeys: [] });
      const { verifier, bonus } = resolveServeConfig(demoConfig, {
        WPK_SCHEME: 'card-bound',
        WPK_PREVIOUS_KEYS: `${'0a'.repeat(16)}, ${'0b'.repeat(32)}`,
        WPK_BONUS_URL: 'http://127.0.0.1:8091/v1/card/{cardNumber}/categories',
      });
      expect(verifier).toMatchObject({ scheme: 'card-bound', previousKeys: ['0a'.repeat(16), '0b'.repeat(32)] });
      expect(bonus).toEqual({ url: 'http://127.0.0.1:8091/v1/card/{cardNumber}/categories', timeoutMs: 300 });
    },
  );

  it('names a bad scheme, a bad previous key and a bonus login without password', () => {
    const issues = issuesOf(
      { ...demoConfig, bonus: { url: 'http://x.example/{cardNumber}', login: 'wallet' } },
      {
        WPK_SCHEME: 'totp',
        WPK_PREVIOUS_KEYS: 'nothex',
      },
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        'verifier.scheme: must be rfc6238 or card-bound',
        'verifier.previousKeys.0: must be hex of at least 16 bytes',
        'bonus: login and password go together',
      ]),
    );
  });

  it('lets the environment override the file and flags override both', () => {
    // Keys of its own: the demo's public ones are refused on a non-loopback host.
    const own = {
      verifier: { ...demoConfig.verifier, key: 'ab'.repeat(32) },
      tills: [{ id: 'till-1', key: 'a-till-key-of-its-own-1234' }],
    };
    const config = resolveServeConfig(own, { WPK_PORT: '9001', WPK_HOST: '0.0.0.0' }, { port: 9002 });
    expect(config.server.port).toBe(9002);
    expect(config.server.host).toBe('0.0.0.0');
  });

  it('names every bad field at once, with its path', () => {
    const issues = issuesOf({
      verifier: { ...demoConfig.verifier, passLength: 12, key: 'nothex' },
      tills: [{ id: 'bad id!', key: 'short' }],
      server: { port: 70000 },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        'verifier.passLength: must be an integer from 1 to 10',
        'verifier.key: must be hex of at least 16 bytes',
        'tills.0.id: must be 1 to 64 of [A-Za-z0-9._-]',
        'tills.0.key: must be a string of 16 to 512 characters',
        'server.port: must be an integer from 0 to 65535',
      ]),
    );
  });

  it('reports a non-numeric environment number as a bad field, not NaN', () => {
    expect(issuesOf(demoConfig, { WPK_PORT: 'eighty' })).toEqual(['server.port: must be an integer from 0 to 65535']);
  });

  it('refuses a configuration without tills, duplicate till keys, and unknown fields', () => {
    expect(issuesOf({ verifier: demoConfig.verifier, tills: [] })).toEqual(['tills: must list at least one till']);
    const key = 'same-key-0123456789';
    expect(
      issuesOf({
        verifier: demoConfig.verifier,
        tills: [
          { id: 'a', key },
          { id: 'b', key },
        ],
      }),
    ).toEqual(['tills: keys must be unique']);
    expect(issuesOf({ ...demoConfig, extra: 1 })).toEqual(['extra: unknown field']);
  });

  it('takes orderedAnswers of a till as a boolean and names anything else', () => {
    const tills = [
      { id: 'a', key: 'key-a-0123456789abcdef', orderedAnswers: true },
      { id: 'b', key: 'key-b-0123456789abcdef' },
    ];
    expect(resolveServeConfig({ ...demoConfig, tills }, {}).tills).toEqual(tills);
    expect(issuesOf({ ...demoConfig, tills: [{ ...tills[0], orderedAnswers: 'yes' }] })).toEqual([
      'tills.0.orderedAnswers: must be true or false',
    ]);
  });

  it('accepts algorithm and delimiter spellings in the file', () => {
    const { algorythm, delimeter, ...rest } = demoConfig.verifier;
    const config = resolveServeConfig(
      { ...demoConfig, verifier: { ...rest, algorithm: algorythm, delimiter: delimeter } },
      {},
    );
    expect(config.verifier.algorythm).toBe('HMACSHA256');
  });

  it(
    'gives the Pay client profile kit, X-Wallet-Token and no paths by default, and takes them from the file and ' +
      'WPK_PAY_*',
    () => {
      expect(resolveServeConfig(demoConfig, {}).pay).toMatchObject({
        profile: 'kit',
        tokenHeader: 'X-Wallet-Token',
        paths: {},
      });
      const file = {
        ...demoConfig,
        pay: { ...demoConfig.pay, profile: 'kit', paths: { cancel: '/payments/cancel', receipt: '/payments/receipt' } },
      };
      const { pay } = resolveServeConfig(file, {
        WPK_PAY_PROFILE: 'document',
        WPK_PAY_TOKEN_HEADER: 'X-Partner-Signature',
      });
      expect(pay).toMatchObject({
        profile: 'document',
        tokenHeader: 'X-Partner-Signature',
        paths: { cancel: '/payments/cancel', receipt: '/payments/receipt' },
      });
    },
  );

  it('names a bad Pay profile, token header and path at start-up', () => {
    const file = { ...demoConfig, pay: { ...demoConfig.pay, paths: { cancel: 'payments/cancel', void: '/void' } } };
    expect(issuesOf(file, { WPK_PAY_PROFILE: 'literal', WPK_PAY_TOKEN_HEADER: 'Content-Type' })).toEqual(
      expect.arrayContaining([
        'pay.profile: must be document or kit',
        'pay.tokenHeader: must not be a header the client sets itself',
        'pay.paths.cancel: must be a path starting with /',
      ]),
    );
    expect(issuesOf(file, {})).toContain('pay.paths.void: unknown field');
    expect(issuesOf(demoConfig, { WPK_PAY_TOKEN_HEADER: 'X Token' })).toEqual([
      'pay.tokenHeader: must be an HTTP header name',
    ]);
  });

  it('never echoes a key in its messages', () => {
    const secretish = 'c'.repeat(31);
    const issues = issuesOf({ ...demoConfig, verifier: { ...demoConfig.verifier, key: secretish } });
    expect(issues.join('\n')).not.toContain(secretish);
  });
});
