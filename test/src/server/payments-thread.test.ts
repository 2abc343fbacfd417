import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../support/ws-client.js';
import { BASKET, startPayServer, TILL_KEY, TOTAL, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../pay/sandbox-harness.js';

const [pglite] = paySandboxCases('payments thread');
const AUDITOR_KEY = 'auditor-key-0123456789abcdef';

// The server's default: payments on a worker thread (no injected clock, so the real one on both sides).
describe('payments on their own thread (pay.thread worker)', () => {
  let sb: PaySandbox;
  let pay: PayServer;
  beforeAll(async () => {
    sb = await pglite!.start(Date.now);
    pay = await startPayServer(sb, {
      webhook: true,
      backOffice: [{ id: 'auditor', key: AUDITOR_KEY, scopes: ['audit:read'] }],
    });
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  const metric = async (name: string) => {
    const text = await (await fetch(`${pay.server.url}/metrics`)).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith(name))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  };

  it(
    'pays through the bridge: the scan verified and the bodies signed by the ' + 'main thread, the status by webhook',
    async () => {
      const tokensBefore = await metric('wpk_tokens_total');
      const till = await pay.connect();
      const card = await pay.sim.issueCard({ walletPayIsDefault: true });
      const started = await till.call('pay.start', {
        fullBarcode: card.barcode,
        basket: BASKET,
        paymentId: 'thread-1',
      });
      expect(started).toMatchObject({ paymentId: 'thread-1', phase: 'pending', totalAmount: TOTAL });
      await pay.sim.confirm(started.transactionId);
      expect(await till.until((u) => u.paymentId === 'thread-1' && u.phase === 'succeeded')).toMatchObject({
        transactionId: started.transactionId,
      });
      expect(till.of('thread-1').map((u) => u.phase)).toEqual(['checking', 'checkout', 'pending', 'succeeded']);
      // availability task and checkout: each signed by the verifier of the main thread, which counts them.
      expect(await metric('wpk_tokens_total')).toBeGreaterThanOrEqual(tokensBefore + 2);

      // The HTTP twin reads the same payment from the thread.
      const viaHttp = await fetch(`${pay.server.url}/v1/payments/thread-1`, {
        headers: { authorization: `Bearer ${TILL_KEY}` },
      });
      expect(await viaHttp.json()).toMatchObject({ paymentId: 'thread-1', phase: 'succeeded', status: 'succeeded' });
    },
  );

  it('answers refusals made on the thread with their codes, the verifier refusal included', async () => {
    const till = await pay.connect();
    await expect(till.call('pay.get', { paymentId: 'nope' })).rejects.toMatchObject({
      rpcCode: -32012,
      code: 'PAYMENT_NOT_FOUND',
    });
    const card = await pay.sim.issueCard({ walletPayIsDefault: true });
    // the scan is used up here
    await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'thread-2a' });
    const refused = await till
      .call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'thread-2' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({
      rpcCode: -32012,
      code: 'BARCODE_REFUSED',
      data: { errors: ['fullBarcode: VALIDATION_FAILED (REPLAYED)'] },
    });
    const http = await fetch(`${pay.server.url}/v1/payments/nope`, {
      headers: { authorization: `Bearer ${TILL_KEY}` },
    });
    expect(http.status).toBe(404);
    expect(await http.json()).toMatchObject({ status: 'PAYMENT_NOT_FOUND' });
  });

  it(
    'tells a till that connects the current state of its open payments, ' + 'and reports the database healthy',
    async () => {
      const till = await pay.connect();
      const card = await pay.sim.issueCard({ walletPayIsDefault: true });
      const started = await till.call('pay.start', {
        fullBarcode: card.barcode,
        basket: BASKET,
        paymentId: 'thread-3',
      });
      expect(started).toMatchObject({ phase: 'pending' });
      const again = await pay.connect();
      expect(await again.until((u) => u.paymentId === 'thread-3')).toMatchObject({
        phase: 'pending',
        transactionId: started.transactionId,
      });
      expect((await fetch(`${pay.server.url}/healthz`)).status).toBe(200);
      expect((await till.call('pay.abandon', { paymentId: 'thread-3' })).phase).toBe('abandoned');
    },
  );

  it("writes a refund's audit row on the thread with the bridge caller's address, once", async () => {
    const till = await pay.connect();
    const card = await pay.sim.issueCard({ walletPayIsDefault: true });
    const started = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'thread-4' });
    await pay.sim.confirm(started.transactionId);
    await till.until((u) => u.paymentId === 'thread-4' && u.phase === 'succeeded');
    await till.call('pay.refund', { paymentId: 'thread-4', refundId: 'thread-rf', amount: 100 });
    const audit = await fetch(`${pay.server.url}/v1/audit?paymentId=thread-4`, {
      headers: { authorization: `Bearer ${AUDITOR_KEY}` },
    });
    const { entries } = (await audit.json()) as { entries: Array<Record<string, unknown>> };
    expect(entries.filter((e) => e.action === 'refund')).toMatchObject([
      { actor: { kind: 'till' }, refundId: 'thread-rf', amount: 100, outcome: 'ok', address: '127.0.0.1' },
    ]);
  });
});
