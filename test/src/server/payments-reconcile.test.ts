import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../../adapters/node/verifier.js';
import { paymentMigrations } from '../../../src/cashdesk/payments/migrations.js';
import { type Database, migrate, openDatabase } from '../../../src/db/index.js';
import { demoConfig } from '../../../src/demo.js';
import { createPayClient } from '../../../src/pay/client.js';
import { uniqueSchema } from '../../support/databases.js';
import { BASKET, PARTNER_ID, startPayServer, TOTAL, type PayServer } from '../../support/pay-server.js';
import { DATABASE_URL, haveService } from '../../support/services.js';
import { writeKitRow } from '../cashdesk/reconcile/kit-rows.js';
import { paySandboxCases, type PaySandbox } from '../pay/sandbox-harness.js';

const [pglite] = paySandboxCases('background reconciliation');
const READER_KEY = 'erp-reader-key-0123456789abcdef';

// The server's default thread (no clock): the comparison runs where the database is, its counts cross to /metrics.
describe.runIf(haveService('DATABASE_URL', DATABASE_URL, 'background reconciliation'))(
  'serve: background reconciliation on the payments thread',
  () => {
    const schema = uniqueSchema('rec');
    let sb: PaySandbox;
    let db: Database;
    let pay: PayServer;

    beforeAll(async () => {
      sb = await pglite!.start(Date.now);
      db = await openDatabase({ url: DATABASE_URL!, schema });
      await migrate(db, 'cashdesk-payments', paymentMigrations);
      // A payment a till abandoned (its cancel failed) that the customer then paid: a late success.
      const signer = createVerifier({ ...demoConfig.verifier, replay: false, lockout: false } as never);
      const client = createPayClient({ baseUrl: sb.url, verifier: signer });
      await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
      const card = await sb.sim.issueCard({ walletPayIsDefault: true });
      const body = { requestId: 'bg-late', cardSession: card.cardSession, ...BASKET, totalAmount: TOTAL };
      const { transactionId } = await client.checkout(body as never);
      await writeKitRow(db, {
        tillId: demoConfig.tills[0].id,
        paymentId: 'bg-late',
        phase: 'abandoned',
        requestId: 'bg-late',
        cardSession: card.cardSession,
        transactions: [{ transactionId, status: 'created', statusClass: 'transit' }],
      });
      await sb.sim.confirm(transactionId);
      await signer.close();
      pay = await startPayServer(sb, {
        webhook: false,
        database: { url: DATABASE_URL!, schema },
        backOffice: [{ id: 'erp', key: READER_KEY, scopes: ['reports:read'] }],
        pay: { reconcile: { intervalMs: 1_000, lookbackMs: 3_600_000 } },
      });
    }, 120_000);
    afterAll(async () => {
      await pay?.close();
      await sb?.close();
      await db?.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await db?.close();
    });

    const gauge = async (kind: string) => {
      const text = await (await fetch(`${pay.server.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`wpk_pay_discrepancies{kind="${kind}"}`));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };

    it('exports the late success as wpk_pay_discrepancies and answers it as the last report', async () => {
      // The first comparison comes an interval after the start, on the thread.
      await expect.poll(() => gauge('late_success'), { timeout: 60_000, interval: 100 }).toBe(1);
      expect(await gauge('paid_untold')).toBe(0);
      const response = await fetch(`${pay.server.url}/v1/back-office/reconciliation`, {
        headers: { authorization: `Bearer ${READER_KEY}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        discrepancies: [{ kind: 'late_success', paymentId: 'bg-late', healed: false }],
      });
    });
  },
);
