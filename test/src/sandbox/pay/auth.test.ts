import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseToken, startPayHarness, uid, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

const INVALID = { status: 'TOKEN_INVALID', errors: ['X-Wallet-Token: invalid'] };

// One scheme: getToken signs with the same token key under both, and no barcode is drawn here (see SCHEMES in
// harness.ts).
describe.each(sandboxCases('sandbox Pay tokens'))('sandbox Pay X-Wallet-Token on $name', (dbCase) => {
  let h: PayHarness;
  beforeAll(async () => {
    h = await startPayHarness(dbCase);
  });
  afterAll(async () => {
    await h?.close();
  });

  const nowSeconds = () => Math.floor(h.clock.now() / 1000);

  /** Sends `text` with `token` and proves nothing was stored: the app shows the card no invoice. */
  async function refusedAndNothingStored(text: string, token: string | null, cardNumber: string): Promise<void> {
    const refused = await h.pay('/checkout', null, { raw: text, token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(INVALID);
    expect(
      (await h.sim('GET', `/sandbox/app/invoices?cardNumber=${cardNumber}&partnerId=${h.partnerId}`)).body.invoices,
    ).toEqual([]);
  }

  it('refuses a token whose body was tampered with after signing', async () => {
    const card = await h.card();
    const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
    const token = h.verifier.getToken(text);
    await refusedAndNothingStored(
      text.replace('"quantity":2', '"quantity":3').replace(/"totalAmount":\d+/, '"totalAmount":30170'),
      token,
      card.cardNumber,
    );
  });

  it('refuses a token made with another key, even naming our partner', async () => {
    const card = await h.card();
    const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
    await refusedAndNothingStored(
      text,
      await joseToken(text, { keyHex: 'ff'.repeat(32), iat: nowSeconds(), kid: h.partnerId }),
      card.cardNumber,
    );
  });

  it('refuses a stale or future iat (more than 300 s away) and accepts one at the edge', async () => {
    const card = await h.card();
    const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
    await refusedAndNothingStored(
      text,
      await joseToken(text, { iat: nowSeconds() - 301, kid: h.partnerId }),
      card.cardNumber,
    );
    await refusedAndNothingStored(
      text,
      await joseToken(text, { iat: nowSeconds() + 301, kid: h.partnerId }),
      card.cardNumber,
    );
    const edge = await h.pay('/checkout', null, {
      raw: text,
      token: await joseToken(text, { iat: nowSeconds() - 300, kid: h.partnerId }),
    });
    expect(edge.status).toBe(200);
  });

  it('refuses a replayed jti, also for an identical idempotent repeat', async () => {
    const card = await h.card();
    const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
    const token = h.verifier.getToken(text);
    expect((await h.pay('/checkout', null, { raw: text, token })).status).toBe(200);
    expect(await h.pay('/checkout', null, { raw: text, token })).toMatchObject({ status: 401, body: INVALID });
    // A fresh token for the same body is the documented recovery and is answered.
    expect((await h.pay('/checkout', null, { raw: text })).status).toBe(200);
  });

  it(
    'refuses a missing, malformed or unknown-partner token on every signed path, and checks an optional one on ' +
      '/status',
    async () => {
      const body = { transactionId: 'trx_x' };
      for (const path of [
        '/availability-info',
        '/availability-info/task',
        '/checkout',
        '/cancel',
        '/refund',
        '/receipt',
      ]) {
        expect((await h.pay(path, body, { token: null })).body, path).toEqual(INVALID);
        expect((await h.pay(path, body, { token: 'not.a.token' })).body, path).toEqual(INVALID);
      }
      const text = JSON.stringify(body);
      expect(
        (await h.pay('/status', body, { token: await joseToken(text, { iat: nowSeconds(), kid: 'someone-else' }) }))
          .body,
      ).toEqual(INVALID);
      expect(
        (await h.pay('/status', body, { token: await joseToken(text, { iat: nowSeconds() - 1000, kid: h.partnerId }) }))
          .body,
      ).toEqual(INVALID);
      expect((await h.pay('/status', body, { token: null })).body.status).toBe('NOT_FOUND');
    },
  );

  it('finds the partner without kid only while the sandbox has exactly one', async () => {
    const card = await h.card();
    const text = JSON.stringify({ cardSession: card.cardSession });
    expect(
      (await h.pay('/availability-info', null, { raw: text, token: await joseToken(text, { iat: nowSeconds() }) }))
        .status,
    ).toBe(200);
    await h.sim('POST', '/sandbox/partners', { partnerId: uid('other'), key: 'ab'.repeat(32) });
    expect(
      (await h.pay('/availability-info', null, { raw: text, token: await joseToken(text, { iat: nowSeconds() }) }))
        .body,
    ).toEqual(INVALID);
    expect((await h.pay('/availability-info', { cardSession: card.cardSession })).status).toBe(200);
  });

  it("keeps one partner's transactions from another partner's tokens", async () => {
    const t = await h.invoice();
    const otherId = uid('other');
    await h.sim('POST', '/sandbox/partners', { partnerId: otherId, key: 'cd'.repeat(32) });
    const text = JSON.stringify({ transactionId: t.transactionId });
    const foreign = await joseToken(text, { keyHex: 'cd'.repeat(32), iat: nowSeconds(), kid: otherId });
    expect((await h.pay('/cancel', null, { raw: text, token: foreign })).status).toBe(404);
    expect((await h.pay('/status', { transactionId: t.transactionId })).body.status).toBe('created');
  });
});
