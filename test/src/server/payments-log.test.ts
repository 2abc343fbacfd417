import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier } from '../../../src/entries/index.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { openServerPayments } from '../../../src/server/payments.js';
import { startFakePayServer } from '../pay/fake-pay-server.js';
import { captureLog } from '../../support/log-capture.js';

const BASKET = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE' as const, quantity: 1, price: 8_990 }],
  discountAmount: 0,
};

describe('openServerPayments', () => {
  let fake: Awaited<ReturnType<typeof startFakePayServer>>;
  const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  beforeAll(async () => {
    fake = await startFakePayServer();
  });
  afterAll(async () => {
    await fake.close();
    await verifier.close();
  });

  it('logs the names of answer fields the client did not understand, never their values', async () => {
    fake.script('/availability-info/task', {
      status: 200,
      body: {
        walletPayIsDefault: false,
        taskId: 't-1',
        providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
        bank_reference: 'VALUE-NOT-TO-LOG',
      },
    });
    const log = captureLog('info');
    const config = resolveServeConfig(
      { verifier: demoConfig.verifier, tills: demoConfig.tills, pay: { url: fake.url, thread: 'main' } },
      {},
    );
    const pay = await openServerPayments(
      { database: config.database, pay: config.pay! },
      {
        verifyForPayment: () => Promise.reject(new Error('no scans here')),
        token: (text: string) => verifier.getToken(text),
      },
      log.logger,
    );
    try {
      await pay.payments.init();
      await pay.payments.intent('start', 'till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p-log' });
      const line = log.lines().find((l) => l.msg === 'pay response not understood');
      expect(line).toMatchObject({
        path: '/availability-info/task',
        httpStatus: 200,
        unknown: expect.arrayContaining(['bank_reference']),
      });
      expect(log.text()).not.toContain('VALUE-NOT-TO-LOG');
    } finally {
      await pay.close();
    }
  });
});
