import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { TransactionState } from '../../../../src/contracts/pay/bodies.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import { generateWebhookSecret } from '../../../../src/entries/webhooks.js';
import { BASKET, sendPayWebhook, succeededState, webhookOnlyPayClient } from './webhook-only-pay.js';

describe('CashDeskPayments giving a payment up at rest', () => {
  const secret = generateWebhookSecret();
  let db: Database;
  const running: CashDeskPayments[] = [];
  /** `shared`: beside other instances (a channel that carries nothing), so a payment at rest is given up. */
  const instance = ({ shared = false } = {}): CashDeskPayments => {
    const payments = new CashDeskPayments({
      client: webhookOnlyPayClient,
      db,
      verify: () => Promise.reject(new Error('no scans here')),
      webhookSecret: secret,
      pollIntervalMs: 3_600_000,
      ...(shared
        ? { openChannel: async () => ({ connected: true, notify: async () => {}, close: async () => {} }) }
        : {}),
    });
    running.push(payments);
    return payments;
  };
  const webhook = (payments: CashDeskPayments, state: TransactionState) => sendPayWebhook(payments, secret, state);

  beforeEach(async () => {
    db = await openDatabase();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.close()));
    await db.close();
  });

  it('gives the payment up once its receipt is sent when it heard the result before adopting it', async () => {
    const first = instance();
    await first.init();
    const started = await first.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p1' });
    expect(started).toMatchObject({ phase: 'pending' });
    await first.close(); // its lease given up, the row still `pending` and active

    const second = instance();
    // The result comes here first (webhooks go to one instance): remembered as the transaction's last state.
    expect((await webhook(second, succeededState(started.transactionId!))).status).toBe(204);
    await second.init(); // adopts the payment: restored pending, it learns the result as it watches again
    const sent = await second.receipt('till-1', { paymentId: 'p1', receipt: { total: 8_990 } });
    expect(sent).toMatchObject({ phase: 'succeeded', receiptSent: true });
    expect(second.inMemory).toBe(0);
  });

  it('gives the payment up after an intent it refused', async () => {
    const payments = instance({ shared: true });
    await payments.init();
    const started = await payments.start('till-2', { cardSession: 'CS2', basket: BASKET, paymentId: 'p2' });
    expect((await webhook(payments, succeededState(started.transactionId!))).status).toBe(204);
    await expect.poll(() => payments.inMemory).toBe(0); // at rest once its result is written
    // Claimed again for the intent, which the session refuses: nothing runs, nothing is left to write.
    await expect(payments.cancel('till-2', { paymentId: 'p2' })).rejects.toMatchObject({ code: 'SESSION_STATE' });
    expect(payments.inMemory).toBe(0);
  });
});
