import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier } from '../../../../src/entries/index.js';
import { checkPayApi } from '../../../../src/entries/pay.js';
import { formatPayCheckSummary } from '../../../../src/pay/check/format.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { startTestSandbox } from '../../../support/sandbox.js';
import { Simulator } from '../sandbox-harness.js';

describe('checkPayApi against a service in a foreign dialect', () => {
  const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ demo: true, dialect: 'foreign' });
  });
  afterAll(async () => {
    await sandbox?.close();
    await verifier.close();
  });

  const check = async (dialect?: Parameters<typeof checkPayApi>[0]['dialect']) => {
    const card = await new Simulator(sandbox.url).issueCard();
    return checkPayApi({
      baseUrl: sandbox.url,
      verifier,
      cardSession: card.cardSession,
      ...(dialect ? { dialect } : {}),
    });
  };

  it('lists the status words it saw that the configured dialect does not map', async () => {
    const report = await check({ statuses: { IN_PROGRESS: 'transit' } });
    expect(report.unmapped).toEqual({ statuses: ['NEW', 'CANCELED'], codes: [], fields: [] });
    expect(formatPayCheckSummary(report)).toContainEqual(
      expect.stringMatching(/^not in the dialect: status NEW, CANCELED/),
    );
  });

  it('lists nothing when the dialect maps every word it saw', async () => {
    const report = await check({ statuses: { NEW: 'transit', CANCELED: 'unsuccessful' } });
    expect(report.unmapped).toEqual({ statuses: [], codes: [], fields: [] });
  });

  it('lists the error codes of refusals the dialect does not map', async () => {
    // A card session the service does not know: refused in its words, which the kit's dialect alone does not map.
    const report = await checkPayApi({ baseUrl: sandbox.url, verifier, cardSession: 'ZZ99ZZ99' });
    expect(report.unmapped.codes).toContain('SESSION_EXPIRED');
  });
});
