import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { ConfigError } from '../../../src/errors.js';
import { resolveServeConfig } from '../../../src/server/config.js';

const KEY = 'erp-key-0123456789abcdefghij';

function issuesOf(file: unknown, env: Record<string, string> = {}): string[] {
  try {
    resolveServeConfig(file, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}

describe('serve configuration: stores and back office', () => {
  it('takes a till store and back-office keys with their scopes', () => {
    const config = resolveServeConfig(
      {
        ...demoConfig,
        tills: [{ id: 't1', key: 'till-key-0123456789', store: 'north' }],
        backOffice: [{ id: 'erp', key: KEY, scopes: ['payments:read'], maxRefundAmount: 10_000 }],
      },
      {},
    );
    expect(config.tills[0]).toMatchObject({ store: 'north' });
    expect(config.backOffice).toEqual([{ id: 'erp', key: KEY, scopes: ['payments:read'], maxRefundAmount: 10_000 }]);
  });

  it('defaults to no back-office key', () => {
    expect(resolveServeConfig(demoConfig, {}).backOffice).toEqual([]);
  });

  it('refuses a key shorter than 24 characters, naming the field and not the key', () => {
    const issues = issuesOf({ ...demoConfig, backOffice: [{ id: 'erp', key: 'short-key', scopes: ['audit:read'] }] });
    expect(issues).toEqual(['backOffice.0.key: must be a string of 24 to 512 characters']);
    expect(issues.join('\n')).not.toContain('short-key');
  });

  it('refuses an unknown scope and an empty scope list', () => {
    expect(issuesOf({ ...demoConfig, backOffice: [{ id: 'erp', key: KEY, scopes: ['payments:write'] }] })).toEqual([
      expect.stringMatching(/^backOffice\.0\.scopes\.0: must be one of payments:read/),
    ]);
    expect(issuesOf({ ...demoConfig, backOffice: [{ id: 'erp', key: KEY, scopes: [] }] })).toEqual([
      'backOffice.0.scopes: must list at least one scope',
    ]);
  });

  it('refuses duplicate back-office ids and keys', () => {
    const twice = [
      { id: 'erp', key: KEY, scopes: ['audit:read'] },
      { id: 'erp', key: KEY, scopes: ['audit:read'] },
    ];
    expect(issuesOf({ ...demoConfig, backOffice: twice })).toEqual([
      'backOffice: ids must be unique',
      'backOffice: keys must be unique',
    ]);
  });

  it('refuses a key that is both a till key and a back-office key', () => {
    const shared = 'shared-key-0123456789abcdef';
    const file = {
      ...demoConfig,
      tills: [{ id: 't1', key: shared }],
      backOffice: [{ id: 'erp', key: shared, scopes: ['audit:read'] }],
    };
    expect(issuesOf(file)).toEqual(['backOffice: a key must not also be a till key']);
  });

  it('refuses a store that is not an id', () => {
    expect(issuesOf({ ...demoConfig, tills: [{ id: 't1', key: 'till-key-0123456789', store: 'a b' }] })).toEqual([
      'tills.0.store: must be 1 to 64 of [A-Za-z0-9._-]',
    ]);
  });

  it('reads the back-office keys from WPK_BACK_OFFICE (JSON), over the file', () => {
    const env = { WPK_BACK_OFFICE: JSON.stringify([{ id: 'env-erp', key: KEY, scopes: ['reports:read'] }]) };
    expect(resolveServeConfig(demoConfig, env).backOffice).toEqual([
      { id: 'env-erp', key: KEY, scopes: ['reports:read'] },
    ]);
  });
});
