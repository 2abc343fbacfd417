import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASKET, startPayServer, TILL_KEY, TOTAL, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('back-office payments');

const NORTH_KEY = TILL_KEY;
const SOUTH_KEY = 'south-till-key-0123456789';
const READER_KEY = 'erp-reader-key-0123456789abcdef';
const REFUNDER_KEY = 'support-refunds-key-0123456789abcdef';
const AUDITOR_KEY = 'auditor-key-0123456789abcdefghij';

describe('back-office payment routes', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  const call = async (method: string, path: string, key: string | undefined, body?: unknown) => {
    const response = await fetch(pay.server.url + path, {
      method,
      headers: {
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** A paid sale of `tillKey`'s till, confirmed at the sandbox. */
  const sale = async (tillKey: string, paymentId: string) => {
    const card = await pay.sim.issueCard({ walletPayIsDefault: false });
    await call('POST', '/v1/payments', tillKey, { fullBarcode: card.barcode, basket: BASKET, paymentId });
    const checkedOut = await call('POST', `/v1/payments/${paymentId}/checkout`, tillKey);
    await pay.sim.confirm(checkedOut.body.transactionId);
    for (let i = 0; i < 2_000; i++) {
      const { body } = await call('GET', `/v1/payments/${paymentId}`, tillKey);
      if (body.phase === 'succeeded') return body;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${paymentId} never succeeded`);
  };

  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, {
      webhook: true,
      clock,
      tills: [
        { id: 'north-1', key: NORTH_KEY, store: 'north' },
        { id: 'south-1', key: SOUTH_KEY, store: 'south' },
      ],
      backOffice: [
        { id: 'erp', key: READER_KEY, scopes: ['payments:read', 'reports:read'] },
        { id: 'support', key: REFUNDER_KEY, scopes: ['payments:refund'], maxRefundAmount: 5_000 },
        { id: 'auditor', key: AUDITOR_KEY, scopes: ['audit:read'] },
      ],
    });
    await sale(NORTH_KEY, 'n-1');
    await sale(NORTH_KEY, 'n-2');
    await sale(SOUTH_KEY, 's-1');
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  it('answers 401 without a key, with a wrong one, and with a till key', async () => {
    for (const key of [undefined, 'wrong-key-0123456789abcdefgh', NORTH_KEY]) {
      expect(await call('GET', '/v1/back-office/payments', key)).toMatchObject({
        status: 401,
        body: { status: 'UNAUTHORIZED' },
      });
    }
  });

  it('refuses a back-office key on the till routes', async () => {
    expect((await call('GET', '/v1/payments', READER_KEY)).status).toBe(401);
  });

  it('never takes a back-office key from the URL', async () => {
    const response = await fetch(`${pay.server.url}/v1/back-office/payments?key=${READER_KEY}`);
    expect(response.status).toBe(401);
  });

  it('answers 403 SCOPE_MISSING for a key without the scope', async () => {
    expect(await call('GET', '/v1/back-office/payments', REFUNDER_KEY)).toMatchObject({
      status: 403,
      body: { status: 'SCOPE_MISSING' },
    });
    const refund = await call('POST', '/v1/back-office/tills/north-1/payments/n-1/refund', READER_KEY, {
      refundId: 'bo-x',
      amount: 100,
    });
    expect(refund).toMatchObject({ status: 403, body: { status: 'SCOPE_MISSING' } });
  });

  it('lists every till with its store, oldest first', async () => {
    const { status, body } = await call('GET', '/v1/back-office/payments', READER_KEY);
    expect(status).toBe(200);
    expect(body.payments.map((p: any) => [p.tillId, p.store, p.paymentId, p.phase, p.totalAmount])).toEqual([
      ['north-1', 'north', 'n-1', 'succeeded', TOTAL],
      ['north-1', 'north', 'n-2', 'succeeded', TOTAL],
      ['south-1', 'south', 's-1', 'succeeded', TOTAL],
    ]);
    expect(body.payments[0].transactions).toHaveLength(1);
    expect(body.next).toBeNull();
  });

  it('filters by store, till and phase', async () => {
    const south = await call('GET', '/v1/back-office/payments?store=south', READER_KEY);
    expect(south.body.payments.map((p: any) => p.paymentId)).toEqual(['s-1']);
    const north = await call('GET', '/v1/back-office/payments?tillId=north-1&phase=succeeded', READER_KEY);
    expect(north.body.payments.map((p: any) => p.paymentId)).toEqual(['n-1', 'n-2']);
    const none = await call('GET', '/v1/back-office/payments?store=nowhere', READER_KEY);
    expect(none.body.payments).toEqual([]);
  });

  it('filters by creation time', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const late = await call('GET', `/v1/back-office/payments?from=${encodeURIComponent(future)}`, READER_KEY);
    expect(late.body.payments).toEqual([]);
    const early = await call('GET', `/v1/back-office/payments?to=${encodeURIComponent(future)}`, READER_KEY);
    expect(early.body.payments).toHaveLength(3);
  });

  it('pages with the cursor it answers', async () => {
    const first = await call('GET', '/v1/back-office/payments?limit=2', READER_KEY);
    expect(first.body.payments.map((p: any) => p.paymentId)).toEqual(['n-1', 'n-2']);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await call('GET', `/v1/back-office/payments?limit=2&cursor=${first.body.next}`, READER_KEY);
    expect(second.body).toMatchObject({ payments: [expect.objectContaining({ paymentId: 's-1' })], next: null });
  });

  it('refuses a bad query and a cursor it did not make', async () => {
    expect(await call('GET', '/v1/back-office/payments?limit=0', READER_KEY)).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST' },
    });
    expect(await call('GET', '/v1/back-office/payments?cursor=bm90LWEtY3Vyc29y', READER_KEY)).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST', errors: ['cursor: not a cursor'] },
    });
  });

  it('refunds a payment of any till without card or till, once per refundId', async () => {
    const path = '/v1/back-office/tills/south-1/payments/s-1/refund';
    const first = await call('POST', path, REFUNDER_KEY, { refundId: 'bo-1', amount: 1_000 });
    expect(first).toMatchObject({ status: 200, body: { paymentId: 's-1', refundedAmount: 1_000 } });
    const again = await call('POST', path, REFUNDER_KEY, { refundId: 'bo-1', amount: 1_000 });
    expect(again).toMatchObject({ status: 200, body: { refundedAmount: 1_000 } });
    const seen = await call('GET', '/v1/payments/s-1', SOUTH_KEY);
    expect(seen.body.refunds).toEqual([expect.objectContaining({ refundId: 'bo-1', amount: 1_000 })]);
  });

  it('refuses a refund over the key limit, and a whole refund that could exceed it', async () => {
    const path = '/v1/back-office/tills/north-1/payments/n-2/refund';
    expect(await call('POST', path, REFUNDER_KEY, { refundId: 'bo-2', amount: 5_001 })).toMatchObject({
      status: 403,
      body: { status: 'REFUND_LIMIT_EXCEEDED' },
    });
    expect(await call('POST', path, REFUNDER_KEY, { refundId: 'bo-3' })).toMatchObject({
      status: 403,
      body: { status: 'REFUND_LIMIT_EXCEEDED' },
    });
    const unchanged = await call('GET', '/v1/payments/n-2', NORTH_KEY);
    expect(unchanged.body.refundedAmount ?? 0).toBe(0);
  });

  it('answers 404 for a till that is not configured and for an unknown payment', async () => {
    const body = { refundId: 'bo-4', amount: 100 };
    expect(
      (await call('POST', '/v1/back-office/tills/ghost/payments/n-1/refund', REFUNDER_KEY, body)).body.status,
    ).toBe('PAYMENT_NOT_FOUND');
    expect(
      (await call('POST', '/v1/back-office/tills/north-1/payments/nope/refund', REFUNDER_KEY, body)).body.status,
    ).toBe('PAYMENT_NOT_FOUND');
  });

  it('refuses a refund body that breaks the till refund rules', async () => {
    const path = '/v1/back-office/tills/north-1/payments/n-1/refund';
    expect(await call('POST', path, REFUNDER_KEY, { refundId: 'bo-5', amount: 1, items: [] })).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST' },
    });
  });

  it('audits the sales, the back-office refund and the refused attempts, for audit:read only', async () => {
    expect((await call('GET', '/v1/audit', READER_KEY)).status).toBe(403);
    const { status, body } = await call('GET', '/v1/audit?limit=500', AUDITOR_KEY);
    expect(status).toBe(200);
    const rows = body.entries.map((e: any) => [e.actor.kind, e.actor.id, e.action, e.tillId, e.paymentId, e.outcome]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['till', 'north-1', 'start', 'north-1', 'n-1', 'ok'],
        ['till', 'north-1', 'checkout', 'north-1', 'n-1', 'ok'],
        ['till', 'south-1', 'checkout', 'south-1', 's-1', 'ok'],
        ['backOffice', 'support', 'refund', 'south-1', 's-1', 'ok'],
        ['backOffice', 'erp', 'refund', 'north-1', 'n-1', 'SCOPE_MISSING'],
        ['backOffice', 'support', 'refund', 'north-1', 'n-2', 'REFUND_LIMIT_EXCEEDED'],
        ['backOffice', 'support', 'refund', 'north-1', 'nope', 'PAYMENT_NOT_FOUND'],
      ]),
    );
    const refund = body.entries.find((e: any) => e.actor.id === 'support' && e.outcome === 'ok');
    expect(refund).toMatchObject({ refundId: 'bo-1', amount: 1_000, address: expect.any(String) });
    expect(body.entries.map((e: any) => e.seq)).toEqual([...body.entries.map((e: any) => e.seq)].sort((a, b) => a - b));
  });

  it('pages the audit log and filters it by payment', async () => {
    const first = await call('GET', '/v1/audit?limit=1', AUDITOR_KEY);
    expect(first.body.entries).toHaveLength(1);
    const second = await call('GET', `/v1/audit?limit=1&cursor=${first.body.next}`, AUDITOR_KEY);
    expect(second.body.entries[0].seq).toBeGreaterThan(first.body.entries[0].seq);
    const s1 = await call('GET', '/v1/audit?paymentId=s-1', AUDITOR_KEY);
    expect(new Set(s1.body.entries.map((e: any) => e.paymentId))).toEqual(new Set(['s-1']));
  });

  it('answers the reconciliation of a period for reports:read, and 403 without it', async () => {
    expect(await call('GET', '/v1/back-office/reconciliation', REFUNDER_KEY)).toMatchObject({
      status: 403,
      body: { status: 'SCOPE_MISSING' },
    });
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const { status, body } = await call('GET', `/v1/back-office/reconciliation?from=${from}&to=${to}`, READER_KEY);
    expect(status).toBe(200);
    expect(body).toMatchObject({ payments: 3, transactions: 3, discrepancies: [] });
    expect((await call('GET', '/v1/back-office/reconciliation?from=yesterday', READER_KEY)).status).toBe(400);
  });

  it('answers the day-close by till and store, with the refund of the day', async () => {
    const date = new Date().toISOString().slice(0, 10);
    expect((await call('GET', `/v1/back-office/reports/day-close?date=${date}`, AUDITOR_KEY)).status).toBe(403);
    const { status, body } = await call('GET', `/v1/back-office/reports/day-close?date=${date}&tz=UTC`, READER_KEY);
    expect(status).toBe(200);
    expect(body.tills).toEqual([
      { tillId: 'north-1', store: 'north', payments: 2, paid: 2 * TOTAL, refunded: 0, net: 2 * TOTAL },
      { tillId: 'south-1', store: 'south', payments: 1, paid: TOTAL, refunded: 1_000, net: TOTAL - 1_000 },
    ]);
    expect(body.totals).toEqual({ payments: 3, paid: 3 * TOTAL, refunded: 1_000, net: 3 * TOTAL - 1_000 });
    expect(body.discrepancies).toEqual([]);
    const bad = await call('GET', '/v1/back-office/reports/day-close?date=2026-02-30', READER_KEY);
    expect(bad).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
  });

  it("records a bridge call's client address in its audit row", async () => {
    const till = await pay.connect(NORTH_KEY);
    const card = await pay.sim.issueCard({ walletPayIsDefault: false });
    await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'ws-1' });
    const { body } = await call('GET', '/v1/audit?paymentId=ws-1', AUDITOR_KEY);
    expect(body.entries).toMatchObject([
      { actor: { kind: 'till', id: 'north-1' }, action: 'start', outcome: 'ok', address: '127.0.0.1' },
    ]);
  });
});
