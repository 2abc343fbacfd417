import { describe, expect, it } from 'vitest';
import { skipOrFail } from '../support/installed-kit.js';

describe('skipOrFail', () => {
  it('returns the reason as a skip outside CI', () => {
    expect(skipOrFail('npm pack cannot run here', {})).toEqual({ skip: 'npm pack cannot run here' });
  });

  it('throws under CI=true, naming the reason', () => {
    expect(() => skipOrFail('the registry is unreachable', { CI: 'true' })).toThrow(
      'installed package: the registry is unreachable; under CI=true it must run',
    );
  });
});
