import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../../adapters/node/verifier.js';
import { demoConfig } from '../../../src/demo.js';
import { runCli } from './support.js';

describe('barcode', () => {
  it('refuses a --session the demo verifier would call MALFORMED, in one line with exit code 2', async () => {
    const { code, stdout, stderr } = await runCli(['barcode', '--demo', '--session', 'x']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'wallet-partner-kit: Invalid arguments: --session: must be 8 printable ASCII characters without the ' +
        "delimiter (the configuration's cardSessionLength), e.g. AB12CD34\n",
    );
  }, 60_000);

  it('prints a barcode with a session that the demo verifier accepts', async () => {
    const { code, stdout } = await runCli(['barcode', '--demo', '--session', 'Zz12Yy34']);
    expect(code).toBe(0);
    const verifier = createVerifier({ ...demoConfig.verifier, replay: false });
    try {
      expect(verifier.barcodeVerify(stdout.trim())).toMatchObject({
        resultCode: 'CARDSESSION_AVAILABLE',
        cardSession: 'Zz12Yy34',
      });
    } finally {
      await verifier.close();
    }
  }, 60_000);
});
