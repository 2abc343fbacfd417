import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../../support/log-capture.js';
import { payCalls } from '../../support/cashdesk-calls.js';
import { SwitchablePayments } from '../../support/down-payments.js';
import { RpcClient, RpcError } from '../../support/ws-client.js';
import { barcode } from '../cashdesk-http/client.js';
import { startBridgeServer, TILL, type BridgeServer } from './harness.js';

describe('the bridge while the database is down', () => {
  const payments = new SwitchablePayments();
  const log = captureLog('info');
  const clients: RpcClient[] = [];
  let server: BridgeServer;
  const connect = async () => {
    const client = await RpcClient.connect(server.url, { key: TILL.key });
    clients.push(client);
    return client;
  };
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => error as RpcError,
    );
  const notices = () => log.lines().filter((l) => /database (unavailable|available again)/.test(String(l.msg)));
  beforeAll(async () => {
    server = await startBridgeServer({ logger: log.logger }, {}, payments);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => server?.close());

  it.each(payCalls('p-1', barcode()))('answers $method DATABASE_UNAVAILABLE with retryAfterMs', async (call) => {
    const { method, params } = call;
    payments.down = true;
    const till = await connect();
    const error = await refusal(till.call(method, params));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', rpcCode: -32004, data: { retryAfterMs: 2000 } });
  });

  it('logs one warning for many refused calls and one line once a call is answered again', async () => {
    const till = await connect();
    payments.down = false;
    await till.call('pay.get', { paymentId: 'p-1' }); // up, whatever the tests before left
    const before = notices().length;
    payments.down = true;
    for (let i = 0; i < 10; i++) await refusal(till.call('pay.get', { paymentId: 'p-1' }));
    payments.down = false;
    await till.call('pay.get', { paymentId: 'p-1' });
    await till.call('pay.get', { paymentId: 'p-1' });
    expect(
      notices()
        .slice(before)
        .map((l) => l.level),
    ).toEqual([40, 30]); // warn, info
    expect(log.lines().filter((l) => l.msg === 'bridge call refused by the kit' && l.level === 40)).toEqual([]);
  });

  it('serves barcode.verify to a till that connected while its subscription fails', async () => {
    payments.down = true;
    const attempts = payments.subscribeAttempts;
    const till = await connect();
    await expect.poll(() => payments.subscribeAttempts).toBeGreaterThan(attempts);
    const verification = await till.call('barcode.verify', { fullBarcode: barcode() });
    expect(verification).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
  });

  it('tells a till that connected during the outage its open payments once the database is back', async () => {
    payments.down = true;
    const attempts = payments.subscribeAttempts;
    const till = await connect();
    await expect.poll(() => payments.subscribeAttempts).toBeGreaterThan(attempts);
    payments.down = false;
    // The subscription is tried again by itself: the current state comes without the till asking.
    expect(await till.next(60_000)).toMatchObject({
      method: 'pay.sessionUpdated',
      params: { paymentId: 'p-1', phase: 'offered' },
    });
  });

  it('lets no failed subscription reject unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      payments.down = true;
      const attempts = payments.subscribeAttempts;
      await connect();
      // A second attempt means the first failure was handled and its retry ran: any unhandled rejection is out by then.
      await expect.poll(() => payments.subscribeAttempts, { timeout: 60_000 }).toBeGreaterThan(attempts + 1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
