import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { TransactionState } from '../../../../src/contracts/pay/bodies.js';
import { openChannel, openDatabase, type Database } from '../../../../src/db/index.js';
import { generateWebhookSecret } from '../../../../src/entries/webhooks.js';
import { uniqueSchema } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';
import { BASKET, sendPayWebhook, succeededState, webhookOnlyPayClient } from './webhook-only-pay.js';

/** The database through which NOTIFY is lost without a word, as a writer that died between its commit and its hint. */
function losingNotifies(db: Database): Database {
  return new Proxy(db, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
      return (sql: string, params?: readonly unknown[]) =>
        sql.includes('pg_notify') ? Promise.resolve({ rows: [] }) : target.query(sql, params);
    },
  });
}

describe.runIf(haveService('DATABASE_URL', DATABASE_URL, 'payments shared by several instances'))(
  'TillFeedRelay on several instances',
  () => {
    const schema = uniqueSchema('sweep');
    const url = DATABASE_URL!;
    let db: Database;
    const running: CashDeskPayments[] = [];
    const secret = generateWebhookSecret();

    const instance = async (notifyWith: Database) => {
      const payments = new CashDeskPayments({
        client: webhookOnlyPayClient,
        db,
        verify: () => Promise.reject(new Error('no scans here')),
        pollIntervalMs: 3_600_000,
        webhookSecret: secret,
        adoptIntervalMs: 50,
        leaseMs: 600,
        openChannel: (l) => openChannel({ url, channel: `wpk_pay_${schema}`, notifyWith, onMessage: l.onMessage }),
      });
      await payments.init();
      running.push(payments);
      return payments;
    };
    const webhook = (payments: CashDeskPayments, state: TransactionState) => sendPayWebhook(payments, secret, state);

    beforeAll(async () => {
      db = await openDatabase({ url, schema, maxConnections: 10 });
    }, 120_000);
    afterEach(async () => {
      await Promise.all(running.splice(0).map((p) => p.close()));
    });
    afterAll(async () => {
      await db?.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await db?.close();
    });

    it('tells a till connected to another instance a result whose hint was lost', async () => {
      const a = await instance(losingNotifies(db));
      const b = await instance(db);
      const told: SessionUpdate[] = [];
      await b.subscribe('till-1', (u) => told.push(u));
      const started = await a.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p1' });
      const state = succeededState(started.transactionId!);
      expect((await webhook(a, state)).status).toBe(204);
      await expect.poll(() => a.get('till-1', { paymentId: 'p1' }).then((v) => v.phase)).toBe('succeeded');
      // No hint reaches B and its channel never went down: only its sweep of the open payments can tell the till.
      await expect
        .poll(() => told.find((u) => u.paymentId === 'p1' && u.phase === 'succeeded'), { timeout: 20_000 })
        .toBeDefined();
    });
  },
);
