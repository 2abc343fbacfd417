import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASKET, startPayServer, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('bridge pay.events');

describe('pay.events and the seq of pay.sessionUpdated', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, { webhook: false, clock });
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  it("numbers a payment's notifications 1, 2, 3, ... in order", async () => {
    const till = await pay.connect();
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'ev-1' });
    await till.until((u) => u.paymentId === 'ev-1' && u.phase === 'pending');
    const seqs = till.of('ev-1').map((u) => u.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('gives a reconnecting till the events it missed after the last seq it got', async () => {
    const first = await pay.connect();
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const started = await first.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'ev-2' });
    const pending = await first.until((u) => u.paymentId === 'ev-2' && u.phase === 'pending');
    await first.close();
    await sb.sim.confirm(started.transactionId);
    await expect
      .poll(async () => (await (await pay.connect()).call('pay.get', { paymentId: 'ev-2' })).phase)
      .toBe('succeeded');
    const again = await pay.connect();
    const restated = await again.until((u) => u.paymentId === 'ev-2');
    expect(restated).toMatchObject({ phase: 'succeeded', restated: true });
    const { events } = await again.call('pay.events', { paymentId: 'ev-2', afterSeq: pending.seq });
    expect(events.map((e: { seq: number }) => e.seq)).toEqual(
      Array.from({ length: restated.seq! - pending.seq! }, (_, i) => pending.seq! + 1 + i),
    );
    expect(events.at(-1)).toMatchObject({ phase: 'succeeded', seq: restated.seq });
  });

  it('refuses pay.events for a payment the till does not have', async () => {
    const till = await pay.connect();
    await expect(till.call('pay.events', { paymentId: 'nope', afterSeq: 0 })).rejects.toMatchObject({
      code: 'PAYMENT_NOT_FOUND',
    });
  });
});
