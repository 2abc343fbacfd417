import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/entries/index.js';
import { ConfigError } from '../../../src/errors.js';
import { resolveServeConfig } from '../../../src/server/config.js';

/** The README's `serve` sample, as a newcomer copies it. */
const README_SAMPLE = {
  verifier: {
    algorythm: 'HMACSHA256',
    passLength: 8,
    prefix: 'CM',
    key: '<partner key, hex>',
    interval: 30,
    cardSessionLength: 8,
    delimeter: ';',
    partnerId: 'chain-42',
  },
  tills: [{ id: 'store-7-till-1', key: '<a long random key per till>' }],
  server: { host: '127.0.0.1', port: 8080, allowedOrigins: [] },
  redisUrl: 'redis://127.0.0.1:6379',
};

const OWN_KEYS = {
  verifier: { ...demoConfig.verifier, key: 'ab'.repeat(32) },
  tills: [{ id: 'till-1', key: 'a-till-key-of-its-own-1234' }],
  pay: { url: 'https://pay.example', webhookSecret: `whsec_${'QUJD'.repeat(8)}` },
};

function issuesOf(file: unknown, env: Record<string, string> = {}, host?: string): string[] {
  try {
    resolveServeConfig(file, env, { host });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}

describe('placeholderIssues', () => {
  it("refuses the README's sample copied as is, naming the partner key and the till key", () => {
    expect(issuesOf(README_SAMPLE)).toEqual([
      'verifier.key: is a placeholder (a value in <...>); put the real value there',
      'tills[0].key: is a placeholder (a value in <...>); put the real value there',
    ]);
  });

  it('names a placeholder that comes from the environment', () => {
    const issues = issuesOf(OWN_KEYS, { WPK_PAY_URL: 'https://<pay host>/' });
    expect(issues).toEqual(['pay.url: is a placeholder (a value in <...>); put the real value there']);
  });

  it("refuses the demo's public keys on a non-loopback host, each named", () => {
    const issues = issuesOf(demoConfig, {}, '0.0.0.0');
    expect(issues).toContain(
      "verifier.key: is one of the kit's public demo secrets, refused on a non-loopback host " + '(0.0.0.0)',
    );
    expect(issues).toContain(
      "tills[0].key: is one of the kit's public demo secrets, refused on a non-loopback host " + '(0.0.0.0)',
    );
    expect(issues).toContain(
      "pay.webhookSecret: is one of the kit's public demo secrets, refused on a non-loopback " + 'host (0.0.0.0)',
    );
  });

  it('accepts the demo keys on loopback, where the demo runs', () => {
    expect(resolveServeConfig(demoConfig, {}).server.host).toBe('127.0.0.1');
  });

  it('accepts keys of its own on any host', () => {
    expect(resolveServeConfig(OWN_KEYS, {}, { host: '0.0.0.0' }).server.host).toBe('0.0.0.0');
  });

  it('never repeats the value it refuses', () => {
    const issues = issuesOf(demoConfig, {}, '10.0.0.5').join('\n');
    expect(issues).not.toContain(demoConfig.verifier.key);
    expect(issues).not.toContain(demoConfig.tills[0].key);
  });
});
