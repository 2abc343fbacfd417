import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { demoSecretsIn, isDemoSecret } from '../../../src/server/demo-secrets.js';
import { LIVE_TILL_KEY, liveConfig } from '../../support/live-config.js';

describe('demoSecretsIn', () => {
  it('names every setting holding a public demo secret, never the value', () => {
    const issues = demoSecretsIn(resolveServeConfig(demoConfig, {}));
    expect(issues.map((line) => line.split(':')[0])).toEqual([
      'verifier.key',
      'tills.0.key (demo-till)',
      'pay.webhookSecret',
      'loyalty.password',
      'push.password',
    ]);
    expect(issues.join('\n')).not.toContain(demoConfig.verifier.key);
  });

  it('finds none in a configuration of its own keys', () => {
    expect(demoSecretsIn(resolveServeConfig(liveConfig(), {}))).toEqual([]);
  });

  it('finds a demo till key among keys of its own', () => {
    const config = { ...liveConfig(), tills: [{ id: 't1', key: LIVE_TILL_KEY }, { ...demoConfig.tills[0] }] };
    expect(demoSecretsIn(resolveServeConfig(config, {}))).toEqual([
      'tills.1.key (demo-till): is a public demo secret; use your own (demo secrets only with --demo)',
    ]);
  });
});

describe('isDemoSecret', () => {
  it('knows the demo Loyalty password and not another', () => {
    expect(isDemoSecret(demoConfig.loyalty.password)).toBe(true);
    expect(isDemoSecret('wallet-password-1')).toBe(false);
    expect(isDemoSecret(undefined)).toBe(false);
  });
});
