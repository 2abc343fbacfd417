import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../../adapters/http-server/serve.js';
import { createVerifier, demoConfig, deriveCardKey } from '../../../../src/entries/index.js';
import { startLoyaltyProgram, type RunningLoyaltyProgram } from '../../../../src/entries/loyalty.js';
import { createLoyaltyProgram } from '../../../../src/loyalty-program/program.js';
import { loyaltyDriverModule } from '../../../../src/sandbox/loyalty/module.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { sandboxCases, startTestSandbox } from '../../../support/sandbox.js';

// One merchant (the target) for the file: each case starts only the sandbox it is about. The demo merchant is
// rfc6238; a card-bound one (its cards carry a card key) serves from the same database, so the driver's barcodes are
// drawn under both schemes without a second start-up. Only barcodes depend on the scheme: the other tests run once.
let merchant: RunningLoyaltyProgram;
let cardBoundMerchant: { url: string; close(): Promise<void> };
beforeAll(async () => {
  merchant = await startLoyaltyProgram({ port: 0, demo: true });
  const program = await createLoyaltyProgram(merchant.db, { ...merchant.options, scheme: 'card-bound' });
  cardBoundMerchant = await serveHttp(program.app, { port: 0 });
}, 180_000); // PGlite start-up: stretched many times over on a loaded machine
afterAll(async () => {
  await cardBoundMerchant?.close();
  await merchant?.close();
});

describe.each(sandboxCases('the sandbox Loyalty driver'))('the sandbox Loyalty driver on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const target = () => ({ url: merchant.url, ...demoConfig.loyalty });

  beforeAll(async () => {
    sandbox = await start({}, [loyaltyDriverModule]);
  }, 180_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('asks for a target first (409 TARGET_NOT_CONFIGURED), then keeps it without echoing the password', async () => {
    expect(await call('POST', '/sandbox/loyalty/cards', {})).toMatchObject({
      status: 409,
      body: { status: 'TARGET_NOT_CONFIGURED' },
    });
    expect(
      (await call('PUT', '/sandbox/loyalty/target', { url: 'ftp://x', login: '', password: 'p' })).body,
    ).toMatchObject({
      status: 'BAD_REQUEST',
      errors: expect.arrayContaining([expect.stringMatching(/^url: /), expect.stringMatching(/^login: /)]),
    });
    const put = await call('PUT', '/sandbox/loyalty/target', target());
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      url: merchant.url,
      login: demoConfig.loyalty.login,
      barcode: expect.objectContaining({ prefix: 'CM', passLength: 8 }),
    });
    expect(JSON.stringify((await call('GET', '/sandbox/loyalty/target')).body)).not.toContain(
      demoConfig.loyalty.password,
    );
  });

  it('has the merchant issue a card and draws its barcode, which the core verifies', async () => {
    const issued = await call('POST', '/sandbox/loyalty/cards', { requestId: 'sandbox-test-1' });
    expect(issued.status).toBe(200);
    const { cardNumber } = issued.body;
    // The demo merchant is rfc6238: no card key; the driver draws with the partner key of its target.
    expect(issued.body).not.toHaveProperty('cardKey');
    expect(await call('POST', '/sandbox/loyalty/cards', { requestId: 'sandbox-test-1' })).toMatchObject({
      body: { cardNumber },
    });
    expect((await call('GET', '/sandbox/loyalty/cards')).body.cards).toEqual([
      expect.objectContaining({ cardNumber, requestId: 'sandbox-test-1' }),
    ]);
    expect(JSON.stringify((await call('GET', '/sandbox/loyalty/target')).body)).not.toContain(demoConfig.verifier.key);

    const verifier = createVerifier({ ...demoConfig.verifier, replay: false });
    const plain = await call('GET', `/sandbox/loyalty/cards/${cardNumber}/barcode`);
    expect(verifier.barcodeVerify(plain.body.fullBarcode)).toMatchObject({
      resultCode: 'CARDSESSION_NOT_AVAILABLE',
      cardNumber,
    });
    const withSession = await call('GET', `/sandbox/loyalty/cards/${cardNumber}/barcode?cardSession=ZX81ZX81`);
    expect(verifier.barcodeVerify(withSession.body.fullBarcode)).toMatchObject({
      resultCode: 'CARDSESSION_AVAILABLE',
      cardSession: 'ZX81ZX81',
    });
    expect(await call('GET', '/sandbox/loyalty/cards/299000/barcode')).toMatchObject({
      status: 404,
      body: { status: 'NOT_FOUND' },
    });
  });

  it(
    'under card-bound, keeps the card key the merchant gives and draws with ' + 'it, which a card-bound core verifies',
    async () => {
      await call('PUT', '/sandbox/loyalty/target', { ...target(), url: cardBoundMerchant.url });
      try {
        const issued = await call('POST', '/sandbox/loyalty/cards', {});
        const { cardNumber } = issued.body;
        expect(issued.body.cardKey).toBe(
          deriveCardKey(demoConfig.verifier.key, cardNumber, demoConfig.verifier.algorythm),
        );
        const verifier = createVerifier({ ...demoConfig.verifier, scheme: 'card-bound', replay: false });
        const withSession = await call('GET', `/sandbox/loyalty/cards/${cardNumber}/barcode?cardSession=ZX81ZX81`);
        expect(verifier.barcodeVerify(withSession.body.fullBarcode)).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          cardNumber,
          cardSession: 'ZX81ZX81',
        });
        // The default (rfc6238) core refuses it: the scheme is really in the barcode.
        expect(
          createVerifier({ ...demoConfig.verifier, replay: false }).barcodeVerify(withSession.body.fullBarcode)
            .resultCode,
        ).toBe('VALIDATION_FAILED');
      } finally {
        await call('PUT', '/sandbox/loyalty/target', target());
      }
    },
  );

  it('picks favourites, enters promo codes and scans receipts as the wallet would', async () => {
    const { cardNumber } = (await call('POST', '/sandbox/loyalty/cards', {})).body;
    const groups = (await call('GET', `/sandbox/loyalty/cards/${cardNumber}/categories`)).body.groups;
    expect(groups.map((g: { groupId: string }) => g.groupId)).toEqual(['products', 'cashback']);
    const picked = [{ groupId: 'cashback', categoryIds: ['cafe'] }];
    expect(await call('POST', `/sandbox/loyalty/cards/${cardNumber}/favorites`, { favorites: picked })).toEqual({
      status: 200,
      body: { favorites: picked },
    });
    expect((await call('GET', `/sandbox/loyalty/cards/${cardNumber}/favorites`)).body).toEqual({ favorites: picked });

    expect(
      (await call('POST', `/sandbox/loyalty/cards/${cardNumber}/promo-code`, { code: 'WELCOME100' })).body,
    ).toMatchObject({ result: 'APPLIED', bonusAmount: 10_000 });
    expect(
      (await call('POST', `/sandbox/loyalty/cards/${cardNumber}/promo-code`, { code: 'WELCOME100' })).body,
    ).toMatchObject({ result: 'ALREADY_USED' });

    const scanned = await call('POST', `/sandbox/loyalty/cards/${cardNumber}/receipt`, { sum: 250_000 });
    expect(scanned.body).toMatchObject({
      result: 'ACCEPTED',
      bonusAmount: 2_500,
      qrCode: expect.stringMatching(/^t=\d{8}T\d{6}&s=2500\.00&fn=\d{16}&i=\d+&fp=\d+&n=1$/),
    });
    expect(
      (await call('POST', `/sandbox/loyalty/cards/${cardNumber}/receipt`, { qrCode: scanned.body.qrCode })).body,
    ).toMatchObject({ result: 'DUPLICATE' });
    expect((await merchant.store.card(cardNumber))?.balance).toBe(12_500);
  });

  it('relays a merchant refusal as 502 MERCHANT_ERROR with its status, code and lines', async () => {
    expect(await call('POST', '/sandbox/loyalty/cards/NO-SUCH-CARD/promo-code', { code: 'X' })).toEqual({
      status: 502,
      body: { status: 'MERCHANT_ERROR', errors: ['merchant answered 404 CARD_NOT_FOUND', 'cardNumber: no such card'] },
    });
    const qr = await call('POST', '/sandbox/loyalty/cards/NO-SUCH-CARD/receipt', {
      qrCode: 't=1&s=2&fn=3&i=4&fp=5&n=6',
    });
    expect(qr.body.errors[0]).toBe('merchant answered 400 BAD_REQUEST');
    expect(qr.body.errors).toContain('qrCode: fn must be the 16-digit fiscal drive number');
  });

  it('runs the conformance check against the target, or a URL given', async () => {
    const report = await call('POST', '/sandbox/loyalty/check', {});
    expect(report.status).toBe(200);
    expect(report.body.ok).toBe(true);
    expect(report.body.lines).toHaveLength(7);
    expect(report.body.lines.every((line: string) => line.startsWith('PASS '))).toBe(true);
    const wrong = await call('POST', '/sandbox/loyalty/check', {
      url: merchant.url,
      login: 'someone',
      password: 'else',
    });
    expect(wrong.body.ok).toBe(false);
    expect(wrong.body.lines[0]).toMatch(/^FAIL issueAnonymousCard: issue: expected 200, got HTTP 401/);
  });

  it("says so when the merchant cannot be reached or refuses the sandbox's credentials", async () => {
    await call('PUT', '/sandbox/loyalty/target', { ...target(), password: 'wrong-password' });
    expect((await call('POST', '/sandbox/loyalty/cards', {})).body).toMatchObject({
      status: 'MERCHANT_ERROR',
      errors: ['merchant answered 401 UNAUTHORIZED', 'Invalid authorization token'],
    });
    await call('PUT', '/sandbox/loyalty/target', { ...target(), url: 'http://127.0.0.1:1' });
    expect(await call('POST', '/sandbox/loyalty/cards', {})).toMatchObject({
      status: 502,
      body: { status: 'MERCHANT_UNREACHABLE' },
    });
    await call('PUT', '/sandbox/loyalty/target', target());
  });
});

describe('the sandbox Loyalty driver with --demo', () => {
  it('targets `loyalty --demo` on its default port and says how in the ' +
    'banner, keeping a target already set', async () => {
    const sandbox = await startTestSandbox({ demo: true }, [loyaltyDriverModule]);
    try {
      expect(await (await fetch(`${sandbox.url}/sandbox/loyalty/target`)).json()).toMatchObject({
        url: 'http://127.0.0.1:8091',
        login: demoConfig.loyalty.login,
      });
      expect(sandbox.sandbox.banner.join('\n')).toContain('/sandbox/loyalty/cards');
      await fetch(`${sandbox.url}/sandbox/loyalty/target`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9999', login: 'a', password: 'b' }),
      });
      await loyaltyDriverModule.seedDemo!(sandbox.sandbox.context);
      expect(await (await fetch(`${sandbox.url}/sandbox/loyalty/target`)).json()).toMatchObject({
        url: 'http://127.0.0.1:9999',
      });
      const doc = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/sandbox/loyalty/cards',
          '/sandbox/loyalty/check',
          '/sandbox/loyalty/cards/{cardNumber}/receipt',
        ]),
      );
    } finally {
      await sandbox.close();
    }
  }, 180_000); // starts a sandbox of its own (PGlite), stretched many times over on a loaded machine
});
