import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCallbackReceiver, type CallbackReceiver } from '../../../src/entries/callback.js';
import { createVerifier, demoConfig } from '../../../src/entries/index.js';
import { createLoyaltyClient, LoyaltyError } from '../../../src/entries/loyalty.js';
import { startLoyaltyProgram, type RunningLoyaltyProgram } from '../../../src/loyalty-program/start.js';
import { createPayClient, PayError } from '../../../src/entries/pay.js';
import { createPushClient, sendCampaign } from '../../../src/entries/push.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { startServer, type RunningServer } from '../../../src/server/serve.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import type { HttpServerHandle } from '../../../adapters/http-server/serve.js';
import { BASKET, PARTNER_ID, payConfig, TILL_KEY, TOTAL } from '../../support/pay-server.js';
import {
  havePrism,
  PrismUnavailableError,
  sayPrismSkip,
  startPrismProxy,
  type PrismProxy,
} from '../../support/prism.js';
import { generatedNumbers } from '../push/sandbox.js';
import { Simulator } from '../pay/sandbox-harness.js';

// Each server runs behind `prism proxy <its document> --errors`, and a representative flow goes through the
// proxy. Prism answers a mismatch (either way) with its own error and an sl-violations header; a recorder in front
// of each Prism notes them, and every one fails the test with Prism's text. Server-to-server legs go through the
// proxies too: the cash desk server calls the Pay API through Prism(pay), and the sandbox's Pay webhooks reach the
// cash desk server through Prism(cashdesk).
//
// The callback receiver has no document of its own (push.json describes its callbacks as a webhook, which a
// proxy cannot check), so it only receives the campaign's callbacks here.

const QR = 't=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1';
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe.skipIf(!havePrism())('the servers through Prism against their OpenAPI documents', () => {
  let unavailable: string | undefined;
  let sandbox: RunningSandbox | undefined;
  let loyalty: RunningLoyaltyProgram | undefined;
  let desk: RunningServer | undefined;
  let receiver: CallbackReceiver | undefined;
  let receiverHttp: HttpServerHandle | undefined;
  // control: Prism(loyalty.json) in front of a server that answers off the document, to show the check fails.
  const proxies: Partial<Record<'pay' | 'push' | 'loyalty' | 'cashdesk' | 'control', PrismProxy>> = {};
  let offContract: Server | undefined;
  let sim: Simulator;
  const proxy = (name: keyof typeof proxies) => proxies[name]!;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demo: true, timeScale: 1000 });
    sim = new Simulator(sandbox.url);
    loyalty = await startLoyaltyProgram({ port: 0, demo: true });
    offContract = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'MAYBE' }));
    });
    await new Promise<void>((resolve) => offContract!.listen(0, '127.0.0.1', resolve));
    try {
      // All settled, so a Prism that did start is kept (and closed in afterAll) when another did not.
      const started = await Promise.allSettled([
        startPrismProxy('openapi/pay.json', sandbox.url),
        startPrismProxy('openapi/push.json', sandbox.url),
        startPrismProxy('openapi/loyalty.json', loyalty.url),
        startPrismProxy('openapi/loyalty.json', `http://127.0.0.1:${(offContract.address() as AddressInfo).port}`),
      ]);
      (['pay', 'push', 'loyalty', 'control'] as const).forEach((name, i) => {
        const result = started[i]!;
        if (result.status === 'fulfilled') proxies[name] = result.value;
      });
      const failed = started.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      // The cash desk server pays through Prism(pay); the sandbox's webhooks reach it through Prism(cashdesk).
      const webhookSecret = generateWebhookSecret();
      desk = await startServer(payConfig(proxy('pay').url, { webhookSecret }));
      proxies.cashdesk = await startPrismProxy('openapi/cashdesk.json', desk.url);
      await sim.partner({
        partnerId: PARTNER_ID,
        key: demoConfig.verifier.key,
        webhookUrl: `${proxies.cashdesk.url}/webhooks/pay`,
        webhookSecret,
      });
    } catch (error) {
      if (!(error instanceof PrismUnavailableError)) throw error;
      unavailable = error.message;
      sayPrismSkip(error.message);
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all(Object.values(proxies).map((p) => p.close()));
    await receiver?.close();
    await desk?.close();
    await loyalty?.close();
    await sandbox?.close();
    offContract?.close();
  }, 120_000);

  beforeEach((context) => {
    if (unavailable) context.skip();
  });

  afterEach(() => {
    // Every mismatch Prism reported while the test ran, with its text; [] when the servers kept to the documents.
    const problems = Object.values(proxies).flatMap((p) => p.takeProblems());
    expect(problems).toEqual([]);
  });

  it(
    'Pay (pay.json): the kit client pays to succeeded, sends the receipt, ' + 'refunds part, and cancels another',
    async () => {
      const pay = proxy('pay');
      const client = createPayClient({ baseUrl: pay.url, verifier: createVerifier({ ...demoConfig.verifier }) });
      const issue = async () =>
        (await (await fetch(`${pay.url}/sandbox/cards`, json({}))).json()) as {
          cardNumber: string;
          cardSession: string;
        };
      const items = [{ name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 }];

      const card = await issue();
      expect(await client.availability({ cardSession: card.cardSession })).toMatchObject({
        walletPayIsDefault: expect.any(Boolean),
      });
      const task = await client.availabilityTask({
        requestId: 'prism-pay-1',
        cardSession: card.cardSession,
        totalAmount: 17_980,
        discountAmount: 0,
        items,
      });
      expect(task.providers.length).toBeGreaterThan(0);
      const checkout = await client.checkout({
        requestId: 'prism-pay-1',
        cardSession: card.cardSession,
        items,
        totalAmount: 17_980,
        discountAmount: 0,
      });
      expect(checkout.status).toBe('created');
      const invoices = (await (
        await fetch(`${pay.url}/sandbox/app/invoices?cardNumber=${card.cardNumber}`)
      ).json()) as { invoices: Array<{ transactionId: string }> };
      expect(invoices.invoices.map((i) => i.transactionId)).toContain(checkout.transactionId);

      // The customer confirms in the app: the sandbox's control, called directly.
      await sim.confirm(checkout.transactionId);
      await expect
        .poll(async () => (await client.status({ transactionId: checkout.transactionId })).status)
        .toBe('succeeded');
      expect(await client.status({ requestId: 'prism-pay-1', cardSession: card.cardSession })).toMatchObject({
        transactionId: checkout.transactionId,
      });
      expect(await client.receipt({ transactionId: checkout.transactionId, receipt: { total: 17_980 } })).toMatchObject(
        { status: 'ACCEPTED' },
      );
      expect(
        await client.refund({ transactionId: checkout.transactionId, refundId: 'prism-refund-1', amount: 1_000 }),
      ).toMatchObject({ amount: 1_000, refundedAmount: 1_000, status: 'succeeded' });
      expect(await (await fetch(`${pay.url}/sandbox/transactions/${checkout.transactionId}`)).json()).toMatchObject({
        refundedAmount: 1_000,
      });
      // Documented refusals pass through too, each in its documented shape: more than remains, a finished
      // transaction cancelled, a token that is not one.
      await expect(
        client.refund({ transactionId: checkout.transactionId, refundId: 'prism-refund-2', amount: 999_999 }),
      ).rejects.toMatchObject({ httpStatus: 422 });
      await expect(client.cancel({ transactionId: checkout.transactionId })).rejects.toMatchObject({ httpStatus: 409 });
      const forger = createPayClient({ baseUrl: pay.url, sign: () => 'not-a-token', retries: false });
      await expect(forger.status({ transactionId: checkout.transactionId })).rejects.toMatchObject({ httpStatus: 401 });

      const other = await issue();
      const second = await client.checkout({
        requestId: 'prism-pay-2',
        cardSession: other.cardSession,
        items,
        totalAmount: 17_980,
        discountAmount: 0,
      });
      expect(await client.cancel({ transactionId: second.transactionId })).toMatchObject({
        transactionId: second.transactionId,
        statusClass: expect.any(String),
      });
      // A documented refusal passes too: 404 for a transaction the service does not know.
      await expect(client.status({ transactionId: 'prism-no-such-trx' })).rejects.toBeInstanceOf(PayError);
    },
  );

  it('Push (push.json): a campaign through the proxy, its delivery callbacks stored by the receiver', async () => {
    const push = proxy('push');
    const secret = generateWebhookSecret();
    receiver = await createCallbackReceiver({ secrets: secret, database: {}, pollMs: 20 });
    receiverHttp = await receiver.listen();
    // Accounts are made with the sandbox's own control (not part of push.json).
    const created = await fetch(
      `${sandbox!.url}/sandbox/push/accounts`,
      json({
        login: 'prism-push',
        partner: 'demo-partner',
        callbackUrl: `${receiverHttp.url}/callback`,
        callbackSecret: secret,
        batchIntervalMs: 0,
        simulateDelivery: true,
      }),
    );
    expect(created.status).toBe(200);
    const { password } = (await created.json()) as { password: string };
    const client = createPushClient({ url: push.url, login: 'prism-push', password });
    await client.resetPassword('prism-push-password-0123');

    const report = await sendCampaign({
      client,
      numbers: [...generatedNumbers(5), 'garbage'],
      subId: 'prism',
      message: { title: 'Hi', text: 'Two for one' },
      batchSize: 3,
    });
    expect(report).toMatchObject({ read: 6, accepted: 5, rejectedCount: 1, batches: 2 });
    const single = await client.single({
      msisdn: generatedNumbers(1, 100)[0]!,
      subId: 'prism',
      message: { title: 'Hi', text: 'Just you' },
    });
    expect(await client.message(single.messageId)).toMatchObject({ messageId: single.messageId });
    // Each of the six messages is called back at least once (sent, then delivered or not).
    await expect
      .poll(async () => (await receiver!.store.counts()).events, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(6);
    expect(await receiver.store.messageState(single.messageId)).toBeDefined();
    // Documented refusals: an unknown message, and the old password.
    await expect(client.message('prism-no-such-message')).rejects.toMatchObject({ httpStatus: 404 });
    const stale = createPushClient({ url: push.url, login: 'prism-push', password });
    await expect(stale.message(single.messageId)).rejects.toMatchObject({ httpStatus: 401 });
  });

  it('Loyalty (loyalty.json): every operation of the demo program, and a documented refusal', async () => {
    const proxied = proxy('loyalty');
    const client = createLoyaltyClient({ baseUrl: proxied.url, ...demoConfig.loyalty });
    const { cardNumber } = await client.issueAnonymousCard('prism-loyalty-1');
    const { groups } = await client.listCategories(cardNumber);
    expect(groups.length).toBeGreaterThan(0);
    const group = groups[0]!;
    const favorites = [{ groupId: group.groupId, categoryIds: [group.categories[0]!.categoryId] }];
    expect(await client.setFavoriteCategories(cardNumber, favorites)).toMatchObject({ favorites });
    expect(await client.getFavoriteCategories(cardNumber)).toMatchObject({ favorites });
    expect(await client.sendPromoCode(cardNumber, 'WELCOME100')).toMatchObject({ result: 'APPLIED' });
    expect(await client.sendReceiptQr(cardNumber, QR)).toMatchObject({ result: expect.any(String) });
    await expect(client.listCategories('prism-no-such-card')).rejects.toMatchObject({ code: 'CARD_NOT_FOUND' });
    await expect(client.listCategories('prism-no-such-card')).rejects.toBeInstanceOf(LoyaltyError);
    const wrong = createLoyaltyClient({
      baseUrl: proxied.url,
      login: demoConfig.loyalty.login,
      password: 'not-the-password-0123',
    });
    await expect(wrong.sendPromoCode(cardNumber, 'WELCOME100')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("reports an exchange off the document either way with Prism's text (the check can fail)", async () => {
    const auth = {
      authorization:
        `Basic ` + `${Buffer.from(`${demoConfig.loyalty.login}:${demoConfig.loyalty.password}`).toString('base64')}`,
    };
    const control = proxy('control');
    // A request without `code`: Prism refuses it itself (--errors); the server never sees it.
    expect((await fetch(`${control.url}/v1/promo/code`, json({ cardNumber: 'prism-card' }, auth))).status).toBe(422);
    expect(control.takeProblems()).toEqual([
      expect.stringMatching(/POST \/v1\/promo\/code -> Prism answered 422 .*required property 'code'/),
    ]);
    // A server answering `result: 'MAYBE'`, which the document does not allow.
    expect(
      (await fetch(`${control.url}/v1/promo/code`, json({ cardNumber: 'prism-card', code: 'WELCOME100' }, auth)))
        .status,
    ).toBe(500);
    expect(control.takeProblems()).toEqual([
      expect.stringMatching(
        /POST \/v1\/promo\/code -> 500: sl-violations .*result must be equal to one of the allowed values/,
      ),
      expect.stringMatching(/POST \/v1\/promo\/code -> Prism answered 500 .*VIOLATIONS/),
    ]);
  });

  it('cash desk (cashdesk.json): verify, token, and a payment to succeeded with receipt and refund', async () => {
    const desk = proxy('cashdesk');
    const till = { authorization: `Bearer ${TILL_KEY}` };
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const response = await fetch(
        desk.url + path,
        body === undefined ? { method, headers: till } : { ...json(body, till), method },
      );
      return { status: response.status, body: (await response.json()) as any };
    };

    const scanned = await sim.issueCard({ walletPayIsDefault: true });
    expect(await call('POST', '/v1/barcode/verify', { fullBarcode: scanned.barcode })).toMatchObject({
      status: 200,
      body: { resultCode: 'CARDSESSION_AVAILABLE' },
    });
    expect(await call('POST', '/v1/token', { requestData: JSON.stringify({ transactionId: 'trx-1' }) })).toMatchObject({
      status: 200,
      body: { token: expect.any(String) },
    });

    const card = await sim.issueCard({ walletPayIsDefault: false });
    expect(
      await call('POST', '/v1/payments', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'prism-1' }),
    ).toMatchObject({ status: 200, body: { paymentId: 'prism-1', phase: 'offered', totalAmount: TOTAL } });
    const checkedOut = await call('POST', '/v1/payments/prism-1/checkout');
    expect(checkedOut).toMatchObject({ status: 200, body: { phase: 'pending' } });
    await sim.confirm(checkedOut.body.transactionId);
    // The status comes by webhook, through Prism(cashdesk).
    await expect.poll(async () => (await call('GET', '/v1/payments/prism-1')).body.phase).toBe('succeeded');
    expect(await call('POST', '/v1/payments/prism-1/receipt', { receipt: { total: TOTAL } })).toMatchObject({
      status: 200,
      body: { receiptSent: true },
    });
    // A partial refund, then the rest: refunded only once the paid amount is used up.
    expect(await call('POST', '/v1/payments/prism-1/refund', { refundId: 'prism-rf-1', amount: 1_000 })).toMatchObject({
      status: 200,
      body: { phase: 'succeeded', refundedAmount: 1_000 },
    });
    expect(await call('POST', '/v1/payments/prism-1/refund', { refundId: 'prism-rf-2' })).toMatchObject({
      status: 200,
      body: { phase: 'refunded', refundedAmount: TOTAL },
    });
    expect(await call('POST', '/v1/payments/prism-1/cancel')).toMatchObject({
      status: 409,
      body: { status: 'SESSION_OVER' },
    });
    expect((await call('GET', '/v1/payments?phase=refunded')).body.payments).toEqual([
      expect.objectContaining({ paymentId: 'prism-1' }),
    ]);
    expect(await call('GET', '/v1/payments/prism-none')).toMatchObject({
      status: 404,
      body: { status: 'PAYMENT_NOT_FOUND' },
    });
    for (const probe of ['/healthz', '/livez', '/metrics', '/openapi.json'])
      expect((await fetch(desk.url + probe)).status).toBe(200);
    const wrongKey = await fetch(
      `${desk.url}/v1/token`,
      json({ requestData: '{}' }, { authorization: 'Bearer wrong-till-key-0123456789' }),
    );
    expect(wrongKey.status).toBe(401);
    // The server-to-server legs took the proxies: the payment's Pay calls, and its webhooks.
    const paths = (proxied: PrismProxy) => proxied.exchanges.map((e) => e.replace(/\?.*? ->/, ' ->'));
    expect(paths(proxy('pay'))).toEqual(
      expect.arrayContaining([
        'POST /availability-info/task -> 200',
        'POST /checkout -> 200',
        'POST /refund -> 200',
        'POST /receipt -> 200',
      ]),
    );
    expect(paths(proxy('cashdesk'))).toContain('POST /webhooks/pay -> 204');
  });
});
