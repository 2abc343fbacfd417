import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayModule } from '../../../src/sandbox/pay/index.js';
import { BASKET, startPayServer, type PayServer, type Till } from '../../support/pay-server.js';
import { type PaySandbox, Simulator } from '../../src/pay/sandbox-harness.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { testClock } from '../../support/clock.js';

// The merchant's signer: HMAC-SHA256 hex like the sandbox checks, or a throw while the test says so.
const SIGNER = `import { createHmac } from 'node:crypto';
export async function sign(bodyText, keyHex) {
  if (globalThis.wpkSignerFails) throw new Error('signer down');
  return createHmac('sha256', Buffer.from(keyHex, 'hex')).update(bodyText).digest('hex');
}`;
const flags = globalThis as { wpkSignerFails?: boolean };

describe('bridge payments signed by a signer module (pay.token.module)', () => {
  const clock = testClock('wall');
  const dir = mkdtempSync(join(tmpdir(), 'wpk-token-module-'));
  let sb: PaySandbox;
  let pay: PayServer;
  let till: Till;
  beforeAll(async () => {
    writeFileSync(join(dir, 'sign.mjs'), SIGNER);
    const module = createPayModule({ tokenScheme: 'hmac-sha256-hex' });
    const running = await startTestSandbox({ demo: true, timeScale: 1000, clock: clock.now }, [module]);
    sb = { url: running.url, sim: new Simulator(running.url), running, close: () => running.close() };
    pay = await startPayServer(sb, { webhook: false, clock, pay: { token: { module: join(dir, 'sign.mjs') } } });
    till = await pay.connect();
  }, 120_000);
  afterAll(async () => {
    flags.wpkSignerFails = undefined;
    await pay?.close();
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the intent with TOKEN_SIGNER_FAILED naming the module and leaves the card able to pay', async () => {
    await sb.sim.bank('approve', 0);
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    flags.wpkSignerFails = true;
    const refused = till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'module-1' });
    await expect(refused).rejects.toMatchObject({ code: 'TOKEN_SIGNER_FAILED' });
    await expect(refused).rejects.toThrow(/token signer \(module .*sign\.mjs\) threw Error/);
    await expect(refused).rejects.not.toThrow(/signer down/);
    flags.wpkSignerFails = false;
    clock.advance(31_000); // the next step: a new password, not a replay of the first scan's
    const fresh = await sb.sim.rescan(card.cardNumber);
    const view = await till.call('pay.start', { fullBarcode: fresh.barcode, basket: BASKET, paymentId: 'module-2' });
    expect(view).toMatchObject({ phase: 'pending' });
    await sb.sim.confirm(view.transactionId);
    expect(await till.until((u) => u.paymentId === 'module-2' && u.phase === 'succeeded')).toMatchObject({
      transactionId: view.transactionId,
    });
  });
});
