import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayErrorEnvelope } from '../../../../src/contracts/pay/index.js';
import { joseToken, sandboxSchemeCases, startPayHarness, uid, type PayHarness } from './harness.js';

const BLOCKED = {
  status: 'CARD_SESSION_INVALID',
  errors: ['cardSession: blocked after a request with an invalid token; scan the barcode again'],
};

describe.each(sandboxSchemeCases('sandbox Pay checkout'))('sandbox Pay /checkout on $name ($scheme)', (dbCase) => {
  let h: PayHarness;
  beforeAll(async () => {
    h = await startPayHarness(dbCase);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates exactly one transaction for 20 concurrent identical requests, all answered the same bytes', async () => {
    const card = await h.card();
    const body = h.checkoutBody(card.cardSession, uid('req'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.pay('/checkout', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ requestId: body.requestId, status: 'created' });
    const { body: invoices } = await h.sim(
      'GET',
      `/sandbox/app/invoices?cardNumber=${card.cardNumber}&partnerId=${h.partnerId}`,
    );
    expect(invoices.invoices).toHaveLength(1);
    expect(invoices.invoices[0].transactionId).toBe(answers[0]!.body.transactionId);
  });

  it('answers a repeat with the stored response even when the JSON is spelled differently', async () => {
    const card = await h.card();
    const body = h.checkoutBody(card.cardSession, uid('req'));
    const first = await h.pay('/checkout', body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await h.pay('/checkout', null, { raw: JSON.stringify(reordered, null, 2) });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  it(
    'refuses the same requestId with another body or another cardSession (409 IDEMPOTENCY_CONFLICT), storing ' +
      'nothing',
    async () => {
      const card = await h.card();
      const other = await h.card();
      const body = h.checkoutBody(card.cardSession, uid('req'));
      const first = await h.pay('/checkout', body);
      const changed = await h.pay('/checkout', {
        ...body,
        items: [{ name: 'Milk', article: 'A-1', quantity: 1, price: 1000 }],
        discountAmount: 0,
        totalAmount: 1000,
      });
      expect(changed).toMatchObject({ status: 409, body: { status: 'IDEMPOTENCY_CONFLICT' } });
      const moved = await h.pay('/checkout', { ...body, cardSession: other.cardSession });
      expect(moved).toMatchObject({ status: 409, body: { status: 'IDEMPOTENCY_CONFLICT' } });
      const record = await h.sim('GET', `/sandbox/transactions/${first.body.transactionId}`);
      expect(record.body).toMatchObject({
        status: 'created',
        totalAmount: body.totalAmount,
        cardSession: card.cardSession,
      });
    },
  );

  it('refuses amounts that do not add up (422 AMOUNT_MISMATCH) and stores nothing', async () => {
    const card = await h.card();
    const requestId = uid('req');
    const good = h.checkoutBody(card.cardSession, requestId);
    for (const bad of [
      { totalAmount: (good.totalAmount as number) + 1 },
      { discountAmount: 10_000_000, totalAmount: 0 },
    ]) {
      const answer = await h.pay('/checkout', { ...good, ...bad });
      expect(answer.status).toBe(422);
      expect(answer.body.status).toBe('AMOUNT_MISMATCH');
      expect(answer.body.errors[0]).toMatch(/^(totalAmount|discountAmount): /);
    }
    // Nothing was stored under that requestId: the right body is a first checkout, not a conflict.
    expect((await h.pay('/checkout', good)).status).toBe(200);
  });

  it('checks the token first, the shape second, the amounts third, the session last', async () => {
    const badShapeAndSum = { requestId: 'r 1', cardSession: 'nope', items: [], discountAmount: 0, totalAmount: 5 };
    expect((await h.pay('/checkout', badShapeAndSum, { token: null })).body.status).toBe('TOKEN_INVALID');
    const shape = await h.pay('/checkout', badShapeAndSum);
    expect(shape).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
    expect(shape.body.errors).toEqual(
      expect.arrayContaining(['requestId: must be 1 to 64 of [A-Za-z0-9._:-]', 'items: must list at least one item']),
    );
    const sum = h.checkoutBody('UnknownS', uid('req'), { totalAmount: 1 });
    expect((await h.pay('/checkout', sum)).body.status).toBe('AMOUNT_MISMATCH');
    expect((await h.pay('/checkout', h.checkoutBody('UnknownS', uid('req')))).body.status).toBe('CARD_SESSION_INVALID');
    const raw = '{"requestId":';
    const token = await joseToken(raw, { iat: Math.floor(h.clock.now() / 1000), kid: h.partnerId });
    expect((await h.pay('/checkout', null, { raw, token })).body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['body: must be JSON'],
    });
    for (const answer of [shape, await h.pay('/checkout', sum)])
      expect(PayErrorEnvelope.safeParse(answer.body).success).toBe(true);
  });

  it(
    'supersedes a waiting invoice of the same card session when an updated ' + 'checkout comes with a new requestId',
    async () => {
      const card = await h.card();
      const first = await h.pay('/checkout', h.checkoutBody(card.cardSession, uid('req')));
      const second = await h.pay(
        '/checkout',
        h.checkoutBody(card.cardSession, uid('req'), {
          items: [{ name: 'Milk', article: 'A-1', quantity: 1, price: 8990 }],
          discountAmount: 0,
          totalAmount: 8990,
        }),
      );
      expect(second.status).toBe(200);
      expect((await h.pay('/status', { transactionId: first.body.transactionId })).body).toMatchObject({
        status: 'cancelled',
        statusClass: 'unsuccessful',
      });
      expect((await h.sim('GET', `/sandbox/transactions/${first.body.transactionId}`)).body.cancelledBy).toBe(
        'superseded',
      );
      const { body } = await h.sim(
        'GET',
        `/sandbox/app/invoices?cardNumber=${card.cardNumber}&partnerId=${h.partnerId}`,
      );
      expect(body.invoices.map((i: { transactionId: string }) => i.transactionId)).toEqual([second.body.transactionId]);
    },
  );

  it('finds a transaction by requestId and cardSession, with or without a token', async () => {
    const t = await h.invoice();
    const signed = await h.pay('/status', { requestId: t.requestId, cardSession: t.cardSession });
    const unsigned = await h.pay('/status', { requestId: t.requestId, cardSession: t.cardSession }, { token: null });
    expect(signed.body).toEqual(unsigned.body);
    expect(signed.body).toMatchObject({
      transactionId: t.transactionId,
      status: 'created',
      statusClass: 'transit',
      refundedAmount: 0,
    });
    expect((await h.pay('/status', { transactionId: 'trx_nope' })).body.status).toBe('NOT_FOUND');
  });

  it('answers availability and registers a task idempotently, showing its offers with the invoice', async () => {
    const card = await h.card({ walletPayIsDefault: false });
    const availability = await h.pay('/availability-info', { cardSession: card.cardSession });
    expect(availability.body).toMatchObject({ walletPayIsDefault: false });
    expect(availability.body.providers.every((p: { available: boolean }) => p.available)).toBe(true);
    const task = {
      requestId: uid('task'),
      cardSession: card.cardSession,
      discountAmount: 0,
      totalAmount: 8990,
      items: [{ name: 'Milk', article: 'A-1', quantity: 1, price: 8990 }],
      offers: [{ providerId: 'wallet', marketingMessage: '5% back' }],
    };
    const first = await h.pay('/availability-info/task', task);
    expect(first.status).toBe(200);
    expect((await h.pay('/availability-info/task', task)).text).toBe(first.text);
    expect((await h.pay('/availability-info/task', { ...task, totalAmount: 1 })).body.status).toBe('AMOUNT_MISMATCH');
    expect((await h.pay('/availability-info/task', { ...task, items: undefined, totalAmount: 1 })).body.status).toBe(
      'IDEMPOTENCY_CONFLICT',
    );
    await h.pay('/checkout', {
      requestId: uid('req'),
      cardSession: card.cardSession,
      items: task.items,
      discountAmount: 0,
      totalAmount: 8990,
    });
    const { body } = await h.sim('GET', `/sandbox/app/invoices?cardNumber=${card.cardNumber}&partnerId=${h.partnerId}`);
    expect(body.invoices[0].offers).toEqual(task.offers);
    const unknownOffer = await h.pay('/availability-info/task', {
      ...task,
      requestId: uid('task'),
      offers: [{ providerId: 'elsewhere', marketingMessage: 'x' }],
    });
    expect(unknownOffer.body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['offers.0.providerId: not a provider offered to this customer'],
    });
    const disabled = await h.card({ payEnabled: false });
    const none = await h.pay('/availability-info', { cardSession: disabled.cardSession });
    expect(none.body.walletPayIsDefault).toBe(false);
    expect(none.body.providers.every((p: { available: boolean; message?: string }) => !p.available && p.message)).toBe(
      true,
    );
  });

  it('offers a card its own providers, kept across rescans, and takes a checkout only for one of them', async () => {
    const providers = [
      { providerId: 'sbp', name: 'Fast payments', available: true },
      { providerId: 'card', name: 'Bank card', available: false, message: 'Card limit reached' },
    ];
    const card = await h.card({ providers, walletPayIsDefault: true });
    const rescan = await h.sim('POST', `/sandbox/cards/${card.cardNumber}/barcode`, { partnerId: h.partnerId });
    const answer = await h.pay('/availability-info', { cardSession: rescan.body.cardSession });
    expect(answer.body).toEqual({ walletPayIsDefault: true, providers });
    const checkout = (providerId: string) =>
      h.pay('/checkout', h.checkoutBody(rescan.body.cardSession, uid('req'), { providerId }));
    expect((await checkout('other')).body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['providerId: not a provider offered to this customer'],
    });
    expect((await checkout('sbp')).status).toBe(200);
    const none = await h.card({
      providers: [{ providerId: 'sbp', name: 'Fast payments', available: false, message: 'Bank offline' }],
    });
    expect((await h.pay('/availability-info', { cardSession: none.cardSession })).body.walletPayIsDefault).toBe(false);
  });

  describe('after a refused token (document section 5: no further action with the card)', () => {
    /** A token naming our partner, made with another key: the signature check refuses it. */
    const forged = (text: string) =>
      joseToken(text, { keyHex: 'ff'.repeat(32), iat: Math.floor(h.clock.now() / 1000), kid: h.partnerId });

    it(
      'answers CARD_SESSION_INVALID to every later call with the card session, a repeat too, until a rescan gives ' +
        'a new one',
      async () => {
        const card = await h.card({ walletPayIsDefault: false });
        const earlier = h.checkoutBody(card.cardSession, uid('req'));
        const invoice = await h.pay('/checkout', earlier);
        expect(invoice.status).toBe(200);
        const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
        expect(await h.pay('/checkout', null, { raw: text, token: await forged(text) })).toMatchObject({
          status: 401,
          body: { status: 'TOKEN_INVALID' },
        });
        const later: Array<[string, unknown]> = [
          ['/availability-info', { cardSession: card.cardSession }],
          [
            '/availability-info/task',
            { requestId: uid('task'), cardSession: card.cardSession, discountAmount: 0, totalAmount: 0 },
          ],
          ['/checkout', JSON.parse(text)],
          ['/checkout', earlier],
          ['/status', { requestId: earlier.requestId, cardSession: card.cardSession }],
        ];
        for (const [path, body] of later)
          expect(await h.pay(path, body), path).toMatchObject({ status: 409, body: BLOCKED });
        // The invoice made before is still the merchant's to settle, by its transactionId.
        expect((await h.pay('/status', { transactionId: invoice.body.transactionId })).body.status).toBe('created');
        expect((await h.pay('/cancel', { transactionId: invoice.body.transactionId })).body.status).toBe('cancelled');
        const rescan = await h.rescan(card.cardNumber);
        expect(rescan.cardSession).not.toBe(card.cardSession);
        expect((await h.pay('/availability-info', { cardSession: rescan.cardSession })).status).toBe(200);
        expect((await h.pay('/checkout', h.checkoutBody(rescan.cardSession, uid('req')))).status).toBe(200);
      },
    );

    it('blocks the card session of the transaction a refused /cancel, /refund or /receipt names', async () => {
      for (const path of ['/cancel', '/refund', '/receipt']) {
        const t = await h.invoice();
        const text = JSON.stringify(
          path === '/cancel'
            ? { transactionId: t.transactionId }
            : path === '/refund'
              ? { transactionId: t.transactionId, refundId: uid('ref') }
              : { transactionId: t.transactionId, receipt: {} },
        );
        expect((await h.pay(path, null, { raw: text, token: await forged(text) })).status, path).toBe(401);
        expect(await h.pay('/availability-info', { cardSession: t.cardSession }), path).toMatchObject({
          status: 409,
          body: BLOCKED,
        });
      }
    });

    it(
      'blocks nothing for a token refused before its body is read, a replayed ' + 'one, or one naming another partner',
      async () => {
        const card = await h.card();
        const text = JSON.stringify({ cardSession: card.cardSession });
        const nowSeconds = Math.floor(h.clock.now() / 1000);
        const otherId = uid('other');
        await h.sim('POST', '/sandbox/partners', { partnerId: otherId, key: 'cd'.repeat(32) });
        const token = h.verifier.getToken(text);
        expect((await h.pay('/availability-info', null, { raw: text, token })).status).toBe(200);
        for (const refused of [
          null,
          'not.a.token',
          await joseToken(text, { iat: nowSeconds - 301, kid: h.partnerId }),
          token,
          await joseToken(text, { keyHex: 'ff'.repeat(32), iat: nowSeconds, kid: otherId }),
        ]) {
          expect((await h.pay('/availability-info', null, { raw: text, token: refused })).status).toBe(401);
        }
        expect((await h.pay('/availability-info', { cardSession: card.cardSession })).status).toBe(200);
      },
    );
  });
});
