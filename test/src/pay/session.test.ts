import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { demoConfig } from '../../../src/demo.js';
import { statusClass, type TransactionState, type TransactionStatus } from '../../../src/contracts/pay/index.js';
import { createVerifier } from '../../../src/entries/index.js';
import type { ConfigError } from '../../../src/errors.js';
import {
  createPayClient,
  createPaymentSession,
  createPayWebhookHandler,
  createTransactionUpdates,
  type PayError,
  PaymentSessionError,
  type PaymentSessionEvent,
  type PaymentSessionOptions,
  type Sleep,
} from '../../../src/entries/pay.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import { paySandboxCases } from './sandbox-harness.js';
import { startFakePayServer } from './fake-pay-server.js';
import { BASKET, SMALLER_BASKET, useSandbox } from './session-fixture.js';

const TOTAL = 2 * 8_990 + 350 * 120 - 1_000;

describe.each(paySandboxCases('Pay session scenario over HTTP'))(
  'createPaymentSession, payment scenario, on $name',
  (db) => {
    const t = useSandbox(db);

    it('checks out automatically when walletPayIsDefault is true, then the result and the receipt follow', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const { session, types } = t.open(card);
      expect(await session.start()).toBe('pending');
      expect(session.walletPayIsDefault).toBe(true);
      expect(types()).toEqual(['providers', 'invoice']);
      const invoices = await t.sim.invoices(card.cardNumber);
      expect(invoices).toHaveLength(1);
      expect(invoices[0]).toMatchObject({
        transactionId: session.transactionId,
        requestId: session.requestId,
        totalAmount: TOTAL,
        status: 'created',
      });
      await t.sim.confirm(session.transactionId!);
      const result = await session.waitForResult();
      expect(result).toMatchObject({
        transactionId: session.transactionId,
        status: 'succeeded',
        statusClass: 'successful',
        totalAmount: TOTAL,
      });
      expect(session.phase).toBe('succeeded');
      expect(await session.sendReceipt({ fiscalSign: '3826350066', total: TOTAL })).toEqual({
        transactionId: session.transactionId,
        status: 'ACCEPTED',
      });
    });

    it('waits for the operator when walletPayIsDefault is false and a provider is available', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: false });
      const { session, events, types } = t.open(card);
      expect(await session.start()).toBe('offered');
      const offer = events.find((e) => e.type === 'offerWalletPay');
      expect((offer as { providers: Array<{ available: boolean }> }).providers.length).toBeGreaterThan(0);
      expect((offer as { providers: Array<{ available: boolean }> }).providers.every((p) => p.available)).toBe(true);
      expect(await t.sim.invoices(card.cardNumber)).toEqual([]); // nothing until the customer agrees
      const checkout = await session.pay();
      expect(checkout.status).toBe('created');
      expect(types()).toEqual(['providers', 'offerWalletPay', 'invoice']);
      await t.sim.confirm(checkout.transactionId);
      expect(await session.waitForResult()).toMatchObject({ status: 'succeeded' });
    });

    it("shows each provider's message and ends when no provider is available", async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true, payEnabled: false });
      const { session, events } = t.open(card);
      expect(await session.start()).toBe('unavailable');
      const shown = events.find((e) => e.type === 'showProviderMessages') as {
        messages: Array<{ providerId: string; message: string }>;
      };
      expect(shown.messages.length).toBeGreaterThan(0);
      expect(shown.messages).toEqual(
        session.providers.map((p) => ({ providerId: p.providerId, name: p.name, message: p.message })),
      );
      for (const m of shown.messages) expect(m.message).toMatch(/\S/);
      expect(events.map((e) => e.type)).not.toContain('invoice');
      await expect(session.pay()).rejects.toMatchObject({ code: 'SESSION_OVER' });
      expect(await t.sim.invoices(card.cardNumber)).toEqual([]);
    });

    it('learns the result from a signed transaction.updated webhook without polling', async () => {
      const updates = createTransactionUpdates();
      const webhookSecret = generateWebhookSecret();
      const handler = createPayWebhookHandler({ secrets: [webhookSecret], updates, clock: t.clock.now });
      const app = new Hono().post('/webhooks/pay', (c) => handler(c.req.raw));
      const receiver = await serveHttp(app, { port: 0 });
      try {
        await t.sim.partner({
          partnerId: 'demo-partner',
          key: demoConfig.verifier.key,
          webhookUrl: `${receiver.url}/webhooks/pay`,
          webhookSecret,
        });
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        const { session } = t.open(card, { updates, pollIntervalMs: 3_600_000 });
        await session.start();
        await t.sim.confirm(session.transactionId!);
        expect(await session.waitForResult()).toMatchObject({
          status: 'succeeded',
          transactionId: session.transactionId,
        });
        const { deliveries } = await t.sim.get<{ deliveries: Array<{ eventType: string }> }>(
          '/sandbox/webhooks?topic=pay',
        );
        expect(deliveries.length).toBeGreaterThan(0);
      } finally {
        await t.sim.partner({ partnerId: 'demo-partner', key: demoConfig.verifier.key, webhookUrl: null });
        await receiver.close();
      }
    });

    it('refuses methods that do not apply to the phase, and a second operation while one runs', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: false });
      const { session } = t.open(card);
      await expect(session.pay()).rejects.toMatchObject({ code: 'SESSION_STATE' });
      await expect(session.waitForResult()).rejects.toBeInstanceOf(PaymentSessionError);
      const starting = session.start();
      await expect(session.start()).rejects.toMatchObject({ code: 'SESSION_BUSY' });
      expect(await starting).toBe('offered');
      await expect(session.refund()).rejects.toMatchObject({ code: 'SESSION_STATE' });
      await session.abandon();
      expect(session.phase).toBe('abandoned');
      await expect(session.pay()).rejects.toMatchObject({ code: 'SESSION_OVER' });
    });

    it('refuses a basket whose discount exceeds the purchase before anything is sent', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const { session } = t.open(card, { basket: { ...BASKET, discountAmount: 10_000_000 } });
      const error = (await session.start().catch((e: unknown) => e)) as PayError;
      expect(error).toMatchObject({ code: 'BAD_REQUEST', httpStatus: undefined, attempts: 0 });
      expect(error.errors).toContain('totalAmount: must not be negative');
      expect(session.phase).toBe('new');
      expect(await t.sim.invoices(card.cardNumber)).toEqual([]);
    });
  },
);

describe('createPaymentSession, results and late answers (scripted Pay server)', () => {
  const state = (transactionId: string, status: TransactionStatus): TransactionState => ({
    transactionId,
    requestId: `req-of-${transactionId}`,
    status,
    statusClass: statusClass(status),
    ...(status === 'rejected' ? { reason: 'DECLINED' as const } : {}),
    totalAmount: 58_980,
    refundedAmount: 0,
    updatedAt: new Date().toISOString(),
  });
  const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  let fake: Awaited<ReturnType<typeof startFakePayServer>>;
  beforeAll(async () => {
    fake = await startFakePayServer();
  });
  afterAll(async () => {
    await fake.close();
    await verifier.close();
  });

  // Polls never fire: states come only through `updates`, in the order a test chooses.
  const neverPoll: Sleep = (ms, signal) =>
    ms < 1_000
      ? Promise.resolve()
      : new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));

  function scripted(extra: Partial<PaymentSessionOptions> = {}, walletPayIsDefault = true) {
    let n = 0;
    const updates = createTransactionUpdates();
    const events: PaymentSessionEvent[] = [];
    fake.script('/availability-info/task', {
      status: 200,
      body: {
        taskId: 'task-1',
        walletPayIsDefault,
        providers: [{ providerId: 'wallet-sbp', name: 'SBP', available: true }],
      },
    });
    const session = createPaymentSession({
      client: createPayClient({ baseUrl: fake.url, verifier, retries: false }),
      cardSession: 'AB12CD34',
      basket: BASKET,
      rescan: async () => 'EF56GH78',
      updates,
      pollIntervalMs: 60_000,
      sleep: neverPoll,
      newId: () => `req-${++n}`,
      onEvent: (e) => events.push(e),
      ...extra,
    });
    return { session, updates, events };
  }

  it('drops stale and repeated states (out-of-order webhooks) and keeps the result', async () => {
    const { session, updates, events } = scripted();
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' } });
    await session.start();
    const result = session.waitForResult();
    updates.publish(state('trx-1', 'processing'));
    updates.publish(state('trx-1', 'created'));
    updates.publish(state('trx-1', 'processing'));
    updates.publish(state('trx-1', 'succeeded'));
    updates.publish(state('trx-1', 'processing'));
    expect(await result).toMatchObject({ status: 'succeeded' });
    expect(session.phase).toBe('succeeded');
    expect(
      events.filter((e) => e.type === 'transaction').map((e) => (e as { state: TransactionState }).state.status),
    ).toEqual(['processing', 'succeeded']);
    session.close();
  });

  it('accepts a result whose intermediate states it never saw (created, then already succeeded)', async () => {
    const { session, updates } = scripted();
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-1b', requestId: 'req-1', status: 'created' } });
    await session.start();
    updates.publish(state('trx-1b', 'created'));
    updates.publish(state('trx-1b', 'succeeded'));
    expect(await session.waitForResult()).toMatchObject({ status: 'succeeded' });
    session.close();
  });

  it(
    'reports a bank answer that comes after the cancellation as lateResult, ' + 'and the session becomes succeeded',
    async () => {
      const { session, updates, events } = scripted();
      fake.script('/checkout', {
        status: 200,
        body: { transactionId: 'trx-2', requestId: 'req-1', status: 'created' },
      });
      fake.script('/cancel', { status: 200, body: state('trx-2', 'cancelled') });
      await session.start();
      updates.publish(state('trx-2', 'processing'));
      expect(await session.cancel()).toMatchObject({ status: 'cancelled' });
      expect(session.phase).toBe('unsuccessful');
      updates.publish(state('trx-2', 'succeeded'));
      expect(events.filter((e) => e.type === 'lateResult')).toEqual([
        { type: 'lateResult', state: expect.objectContaining({ transactionId: 'trx-2', status: 'succeeded' }) },
      ]);
      expect(session.phase).toBe('succeeded');
      session.close();
    },
  );

  it('reports a replaced invoice that was paid after all as lateResult, leaving the new one pending', async () => {
    const { session, updates, events } = scripted();
    fake.script(
      '/checkout',
      { status: 200, body: { transactionId: 'trx-3', requestId: 'req-1', status: 'created' } },
      { status: 200, body: { transactionId: 'trx-4', requestId: 'req-2', status: 'created' } },
    );
    fake.script('/cancel', { status: 200, body: state('trx-3', 'cancelled') });
    await session.start();
    updates.publish(state('trx-3', 'processing'));
    await session.changeBasket(SMALLER_BASKET);
    updates.publish(state('trx-3', 'succeeded'));
    expect(events.filter((e) => e.type === 'lateResult')).toHaveLength(1);
    expect(session.phase).toBe('pending');
    expect(session.transactionId).toBe('trx-4');
    session.close();
  });

  it('still reports a late success after the desk abandoned the payment for another method', async () => {
    const { session, updates, events } = scripted();
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-6', requestId: 'req-1', status: 'created' } });
    fake.script('/cancel', { status: 200, body: state('trx-6', 'cancelled') });
    await session.start();
    updates.publish(state('trx-6', 'processing'));
    await session.abandon();
    expect(session.phase).toBe('abandoned');
    updates.publish(state('trx-6', 'succeeded'));
    expect(events.filter((e) => e.type === 'lateResult')).toHaveLength(1);
    session.close();
  });

  it('abandons when the service cannot cancel, and a later success there is still a late result', async () => {
    const { session, updates, events } = scripted();
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-7', requestId: 'req-1', status: 'created' } });
    fake.script('/cancel', { status: 400, body: { code: 'VALIDATION_ERROR', message: 'not now' } });
    await session.start();
    await session.abandon();
    expect(session.phase).toBe('abandoned');
    updates.publish(state('trx-7', 'succeeded'));
    expect(events.filter((e) => e.type === 'lateResult')).toHaveLength(1);
    expect(session.phase).toBe('abandoned');
    session.close();
  });

  it('names every bad option at creation', () => {
    let error: unknown;
    try {
      createPaymentSession({
        client: {} as never,
        cardSession: 'not\ta session',
        basket: { items: [] },
        rescan: 'x' as never,
        pollIntervalMs: 0,
      });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cardSession: /),
        'basket.items: must list at least one item',
        expect.stringMatching(/^pollIntervalMs: /),
        'client: must be a PayClient (createPayClient)',
        'rescan: must be a function resolving to the new cardSession',
      ]),
    );
  });

  it('rejects cancel() with ALREADY_PAID when the payment succeeded first, and moves to succeeded', async () => {
    const { session, events } = scripted();
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-5', requestId: 'req-1', status: 'created' } });
    fake.script('/cancel', {
      status: 409,
      body: { status: 'INVALID_STATE', errors: ['status: succeeded cannot be cancelled'] },
    });
    fake.script('/status', { status: 200, body: state('trx-5', 'succeeded') });
    await session.start();
    const result = session.waitForResult();
    await expect(session.cancel()).rejects.toMatchObject({ code: 'ALREADY_PAID' });
    expect(session.phase).toBe('succeeded');
    expect(events.filter((e) => e.type === 'lateResult')).toEqual([]); // a result, not a late one
    expect(await result).toMatchObject({ status: 'succeeded' });
    session.close();
  });

  it('gives RESCAN_FAILED and returns to offered when the till cannot rescan', async () => {
    const { session } = scripted(
      {
        rescan: async () => {
          throw new Error('customer left');
        },
      },
      false,
    );
    expect(await session.start()).toBe('offered');
    fake.script('/checkout', {
      status: 409,
      body: { status: 'CARD_SESSION_INVALID', errors: ['cardSession: expired'] },
    });
    const error = (await session.pay().catch((e: unknown) => e)) as PaymentSessionError;
    expect(error).toMatchObject({ code: 'RESCAN_FAILED' });
    expect((error.cause as Error).message).toBe('customer left');
    expect(session.phase).toBe('offered');
    session.close();
  });
});
