import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { openDatabase } from '../../../src/db/index.js';
import { startServer, type RunningServer } from '../../../src/server/serve.js';
import { uniqueSchema } from '../../support/databases.js';
import { BASKET, PARTNER_ID, payConfig, Till } from '../../support/pay-server.js';
import { DATABASE_URL, haveService } from '../../support/services.js';
import { paySandboxCases, type PaySandbox } from '../pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('two serve instances');

describe.runIf(haveService('DATABASE_URL', DATABASE_URL, 'two serve instances on one PostgreSQL'))(
  'two serve instances on one PostgreSQL',
  () => {
    const clock = testClock('wall');
    const schema = uniqueSchema('twin');
    let sb: PaySandbox;
    const servers: RunningServer[] = [];
    const tills: Till[] = [];
    beforeAll(async () => {
      sb = await pglite!.start(clock.now);
      await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
      for (let i = 0; i < 2; i++) {
        servers.push(
          await startServer(payConfig(sb.url, { database: { url: DATABASE_URL!, schema } }), undefined, {
            clock: clock.now,
          }),
        );
      }
    }, 120_000);
    afterAll(async () => {
      await Promise.all(tills.map((t) => t.close()));
      for (const server of servers) await server.close();
      await sb?.close();
      const db = await openDatabase({ url: DATABASE_URL! });
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.close());
    });

    it(
      'a till that reconnects to the other instance gets its payment and its notifications; the payment moves once ' +
        'its driver is gone',
      async () => {
        const [a, b] = servers as [RunningServer, RunningServer];
        const card = await sb.sim.issueCard({ walletPayIsDefault: true });
        const onA = await Till.connect(a.wsUrl);
        tills.push(onA);
        const started = await onA.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'twin-1' });
        expect(started).toMatchObject({ phase: 'pending' });
        await onA.close();

        const onB = await Till.connect(b.wsUrl);
        tills.push(onB);
        expect(await onB.until((u) => u.paymentId === 'twin-1')).toMatchObject({
          phase: 'pending',
          transactionId: started.transactionId,
        });
        expect(await onB.call('pay.get', { paymentId: 'twin-1' })).toMatchObject({ phase: 'pending' });
        // A still drives it (it holds the payment's lease): its result reaches the till on B through a hint and the
        // rows.
        await sb.sim.confirm(started.transactionId);
        expect(await onB.until((u) => u.paymentId === 'twin-1' && u.phase === 'succeeded')).toMatchObject({
          status: 'succeeded',
        });
        // The till's intent on B: A hands the payment over, B sends the receipt.
        expect(await onB.call('pay.receipt', { paymentId: 'twin-1', receipt: { total: 1 } })).toMatchObject({
          phase: 'succeeded',
          receiptSent: true,
        });
        expect(await onB.call('pay.get', { paymentId: 'twin-1' })).toMatchObject({ receiptSent: true });
      },
    );
  },
);
