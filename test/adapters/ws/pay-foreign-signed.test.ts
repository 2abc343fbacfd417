import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayModule } from '../../../src/sandbox/pay/index.js';
import { BASKET, startPayServer, type PayServer, type Till } from '../../support/pay-server.js';
import { FOREIGN_DIALECT_PAY, type PaySandbox, Simulator } from '../../src/pay/sandbox-harness.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { testClock } from '../../support/clock.js';

// The service's names for the answers' fields the document does not show; the kit is told them in pay.dialect.fields.
const FIELDS = {
  providers: 'paymentMethods',
  walletPayIsDefault: 'isDefault',
  providerId: 'code',
  name: 'title',
  available: 'enabled',
  transactionId: 'paymentId',
};

describe.each(['hmac-sha256-hex', 'hmac-sha256-base64'] as const)(
  'bridge payments against a foreign service signing with %s under its own field names',
  (scheme) => {
    const clock = testClock('wall');
    let sb: PaySandbox;
    let pay: PayServer;
    let till: Till;
    beforeAll(async () => {
      const module = createPayModule({ tokenScheme: scheme, tokenHeader: 'X-Signature', answerFields: FIELDS });
      const running = await startTestSandbox({ demo: true, timeScale: 1000, clock: clock.now, dialect: 'foreign' }, [
        module,
      ]);
      sb = { url: running.url, sim: new Simulator(running.url), running, close: () => running.close() };
      const dialect = { ...(FOREIGN_DIALECT_PAY.dialect as object), fields: FIELDS };
      pay = await startPayServer(sb, {
        webhook: false,
        clock,
        pay: { ...FOREIGN_DIALECT_PAY, dialect, token: { scheme }, tokenHeader: 'X-Signature' },
      });
      till = await pay.connect();
    }, 120_000);
    afterAll(async () => {
      await pay?.close();
      await sb?.close();
    });

    it('reaches succeeded, every call accepted', async () => {
      await sb.sim.bank('approve', 0);
      const card = await sb.sim.issueCard({ walletPayIsDefault: true });
      const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'signed-1' });
      expect(view).toMatchObject({ phase: 'pending', status: 'NEW' });
      expect(typeof view.transactionId).toBe('number');
      await sb.sim.confirm(view.transactionId);
      expect(await till.until((u) => u.paymentId === 'signed-1' && u.phase === 'succeeded')).toMatchObject({
        status: 'PAID',
        transactionId: view.transactionId,
      });
    });

    it("hands the till the sandbox's token for its own calls: the configured scheme", async () => {
      const { token } = await till.call('token.get', { requestData: '{"cardSession":"AB12CD34"}' });
      expect(token).toMatch(scheme === 'hmac-sha256-hex' ? /^[0-9a-f]{64}$/ : /^[A-Za-z0-9+/]{43}=$/);
    });
  },
);
