import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { BASKET, startPayServer, type PayServer, type Till } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('bridge one scan for loyalty and payment');
const OTHER = { id: 'other-till', key: 'other-till-key-for-tests-only-0001' };

// The document's payment scenario: the till verifies the scan (loyalty), then pays with that same scan.
describe("pay.start and pay.rescan with fullBarcode after the till's own barcode.verify", () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  let till: Till;
  let other: Till;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, { webhook: false, clock, tills: [...demoConfig.tills, OTHER] });
    till = await pay.connect();
    other = await pay.connect(OTHER.key);
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  it('pays with the scan the same till verified', async () => {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    expect(await till.call('barcode.verify', { fullBarcode: card.barcode })).toMatchObject({
      resultCode: 'CARDSESSION_AVAILABLE',
    });
    const started = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'scan-1' });
    expect(started).toMatchObject({ phase: 'pending' });
  });

  it('refuses that scan to another till as REPLAYED', async () => {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    await till.call('barcode.verify', { fullBarcode: card.barcode });
    await expect(
      other.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'scan-2' }),
    ).rejects.toMatchObject({
      code: 'BARCODE_REFUSED',
      data: { errors: ['fullBarcode: VALIDATION_FAILED (REPLAYED)'] },
    });
  });

  it('lets the scan serve one payment only: a second pay.start with it is REPLAYED', async () => {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    await till.call('barcode.verify', { fullBarcode: card.barcode });
    await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'scan-3' });
    await expect(
      till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'scan-4' }),
    ).rejects.toMatchObject({
      code: 'BARCODE_REFUSED',
      data: { errors: ['fullBarcode: VALIDATION_FAILED (REPLAYED)'] },
    });
  });

  it('takes the rescan the same till verified', async () => {
    const card = await sb.sim.issueCard({ walletPayIsDefault: false });
    const paymentId = 'scan-5';
    expect(await till.call('pay.start', { cardSession: card.cardSession, basket: BASKET, paymentId })).toMatchObject({
      phase: 'offered',
    });
    clock.advance(901_000); // past the sandbox's card session lifetime: the checkout asks for a rescan
    expect(await till.call('pay.checkout', { paymentId })).toMatchObject({ phase: 'rescanning' });
    const fresh = await sb.sim.rescan(card.cardNumber);
    await till.call('barcode.verify', { fullBarcode: fresh.barcode });
    expect(await till.call('pay.rescan', { paymentId, fullBarcode: fresh.barcode })).toMatchObject({
      phase: 'pending',
    });
  });
});
