import { describe, expect, it } from 'vitest';
import { presentedKey, TillRegistry } from '../../../src/cashdesk/tills.js';

describe('TillRegistry', () => {
  const registry = new TillRegistry([
    { id: 'a', key: 'key-of-till-a-0123' },
    { id: 'b', key: 'key-of-till-b-0123' },
  ]);

  it('returns the till a key belongs to', () => {
    expect(registry.authenticate('key-of-till-a-0123')).toEqual({ id: 'a' });
    expect(registry.authenticate('key-of-till-b-0123')).toEqual({ id: 'b' });
  });

  it('refuses unknown, empty, prefix, overlong and non-string keys', () => {
    for (const key of ['key-of-till-a-012', 'key-of-till-a-01234', '', 'x'.repeat(10_000), undefined, null]) {
      expect(registry.authenticate(key as string | undefined)).toBeUndefined();
    }
  });
});

describe('presentedKey', () => {
  it('reads a Bearer token, case-insensitively, and prefers the header to the query', () => {
    expect(presentedKey('Bearer abc', '/ws?key=zzz')).toBe('abc');
    expect(presentedKey('bearer   abc  ', undefined)).toBe('abc');
  });

  it('reads ?key= when there is no header, and nothing from other schemes', () => {
    expect(presentedKey(undefined, '/ws?key=k%2F1')).toBe('k/1');
    expect(presentedKey('Basic dXNlcjpwYXNz', '/ws?key=zzz')).toBeUndefined();
    expect(presentedKey(undefined, '/ws')).toBeUndefined();
  });
});
