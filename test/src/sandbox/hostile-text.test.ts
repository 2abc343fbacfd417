import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { createVerifier, type Verifier } from '../../../src/entries/index.js';
import type { RunningSandbox } from '../../../src/entries/sandbox.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { captureLog, leakedSecrets, type CapturedLog } from '../../support/log-capture.js';
import { joseToken, uid } from './pay/harness.js';
import { sandboxCases } from '../../support/sandbox.js';

const NUL = '\u0000';
const CONTROL = 'must not contain control characters';

/** What an answer must look like: a 4xx in the envelope, never a 5xx. */
async function answer(res: Response) {
  const text = await res.text();
  const body = JSON.parse(text) as { status: string; errors: string[] };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(body).toEqual({ status: expect.any(String), errors: expect.any(Array) });
  return { status: res.status, body, headers: res.headers };
}

/** JSON text of an object nested `depth` deep (built as text: JSON.stringify itself would overflow). */
const deep = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

describe.each(sandboxCases('the sandbox hostile-text checks'))(
  'the sandbox (Pay, Push, Loyalty driver) on $name, given NUL bytes and deep JSON',
  (dbCase) => {
    const key = randomBytes(32).toString('hex');
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const callbackSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const pushPassword = `initial-${randomBytes(12).toString('hex')}`;
    const pushNewPassword = `reset-${randomBytes(12).toString('hex')}`;
    const loyaltyPassword = `loyalty-${randomBytes(12).toString('hex')}`;
    const partnerId = uid('partner');
    const cardBoundId = uid('card-bound');
    const login = uid('push');
    let log: CapturedLog;
    let running: RunningSandbox;
    let verifier: Verifier;
    let card: { cardNumber: string; cardSession: string; barcode: string; cardKey: string | null };
    // Both schemes (see SCHEMES in pay/harness.ts): a card-bound partner's card carries a card key, which must not leak
    // either.
    let cardBound: typeof card;

    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(running.url + path, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    const pay = (path: string, body: unknown, token?: string) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return call('POST', path, text, { 'x-wallet-token': token ?? verifier.getToken(text) });
    };

    beforeAll(async () => {
      log = captureLog();
      running = await dbCase.start({ logger: log.logger });
      verifier = createVerifier({ ...BASE_CONFIG, key, partnerId, replay: false });
      expect((await call('POST', '/sandbox/partners', { partnerId, key, webhookSecret })).status).toBe(200);
      const issued = await call('POST', '/sandbox/cards', { partnerId });
      expect(issued.status).toBe(200);
      card = (await issued.json()) as typeof card;
      expect(
        (await call('POST', '/sandbox/partners', { partnerId: cardBoundId, key, scheme: 'card-bound' })).status,
      ).toBe(200);
      cardBound = (await (await call('POST', '/sandbox/cards', { partnerId: cardBoundId })).json()) as typeof card;
      expect(cardBound.cardKey).toMatch(/^[0-9a-f]{64}$/);
      expect(
        (
          await call('POST', '/sandbox/push/accounts', {
            login,
            partner: 'partner-1',
            password: pushPassword,
            callbackSecret,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call(
            'PUT',
            '/public/user/reset-password',
            { password: pushNewPassword },
            { authorization: basicAuthHeader(login, pushPassword) },
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await call('PUT', '/sandbox/loyalty/target', {
            url: 'http://127.0.0.1:9/',
            login: 'wallet',
            password: loyaltyPassword,
          })
        ).status,
      ).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await running?.close();
    });

    it('refuses a NUL in the control bodies with 400 naming the field, and stores nothing', async () => {
      const partner = await answer(
        await call('POST', '/sandbox/partners', {
          partnerId: uid('p'),
          key,
          webhookUrl: `http://127.0.0.1/${NUL}hook`,
        }),
      );
      expect(partner).toMatchObject({
        status: 400,
        body: { status: 'BAD_REQUEST', errors: [`webhookUrl: ${CONTROL}`] },
      });
      const other = uid('push');
      const account = await answer(
        await call('POST', '/sandbox/push/accounts', { login: other, partner: `p${NUL}`, password: pushPassword }),
      );
      expect(account).toMatchObject({ status: 400, body: { errors: [`partner: ${CONTROL}`] } });
      expect((await call('GET', `/sandbox/push/accounts/${other}`)).status).toBe(404);
      const target = await answer(
        await call('PUT', '/sandbox/loyalty/target', {
          url: 'http://127.0.0.1:9/',
          login: `w${NUL}`,
          password: `${loyaltyPassword}${NUL}`,
        }),
      );
      expect(target.body.errors).toEqual([`login: ${CONTROL}`, `password: ${CONTROL}`]);
      const promo = await answer(
        await call('POST', `/sandbox/loyalty/cards/${card.cardNumber}/promo-code`, { code: `WELCOME${NUL}` }),
      );
      expect(promo).toMatchObject({ status: 400, body: { errors: [`code: ${CONTROL}`] } });
    });

    it('refuses a NUL in a Pay body with 400 naming the field, after the token check', async () => {
      const body = {
        requestId: uid('req'),
        cardSession: card.cardSession,
        discountAmount: 0,
        totalAmount: 100,
        items: [{ name: `Milk${NUL}`, article: 'A-1', quantity: 1, price: 100 }],
      };
      expect(await answer(await pay('/checkout', body))).toMatchObject({
        status: 400,
        body: { errors: [`items.0.name: ${CONTROL}`] },
      });
      expect((await answer(await pay('/checkout', body, 'not-a-token'))).status).toBe(401);
      const receipt = await answer(
        await pay('/receipt', { transactionId: 'trx-1', receipt: { lines: [{ name: `a${NUL}b` }] } }),
      );
      expect(receipt).toMatchObject({ status: 400, body: { errors: [`receipt.lines.0.name: ${CONTROL}`] } });
    });

    it('answers a /receipt body nested 5000 deep with 400, before anything walks it', async () => {
      // The kit's getToken refuses to sign past 1024 levels; jose signs anything.
      const text = `{"transactionId":"trx-1","receipt":${deep(5000)}}`;
      const token = await joseToken(text, { keyHex: key, iat: Math.floor(Date.now() / 1000), kid: partnerId });
      const res = await answer(await call('POST', '/receipt', text, { 'x-wallet-token': token }));
      expect(res).toMatchObject({
        status: 400,
        body: { status: 'BAD_REQUEST', errors: ['body: nesting deeper than 64 levels'] },
      });
      const control = await answer(
        await call('POST', '/sandbox/partners', `{"partnerId":"p-1","key":"${key}","layout":${deep(100)}}`),
      );
      expect(control.body.errors).toEqual(['body: nesting deeper than 64 levels']);
    });

    it('blocks the card session a forged token names, and logs that without the session or any key', async () => {
      const text = JSON.stringify({ cardSession: cardBound.cardSession });
      const forged = await joseToken(text, {
        keyHex: 'ff'.repeat(32),
        iat: Math.floor(Date.now() / 1000),
        kid: cardBoundId,
      });
      expect((await answer(await call('POST', '/availability-info', text, { 'x-wallet-token': forged }))).status).toBe(
        401,
      );
      const desk = createVerifier({ ...BASE_CONFIG, key, partnerId: cardBoundId, replay: false });
      const later = await answer(
        await call('POST', '/availability-info', text, { 'x-wallet-token': desk.getToken(text) }),
      );
      expect(later).toMatchObject({ status: 409, body: { status: 'CARD_SESSION_INVALID' } });
      expect(log.lines()).toContainEqual(
        expect.objectContaining({ msg: 'card session blocked after a refused wallet token', partnerId: cardBoundId }),
      );
    });

    it('refuses a token whose kid holds a NUL as TOKEN_INVALID', async () => {
      const text = JSON.stringify({ cardSession: card.cardSession });
      const token = await joseToken(text, {
        keyHex: key,
        iat: Math.floor(Date.now() / 1000),
        kid: `${partnerId}${NUL}`,
      });
      const res = await answer(await call('POST', '/availability-info', text, { 'x-wallet-token': token }));
      expect(res).toMatchObject({ status: 401, body: { status: 'TOKEN_INVALID' } });
    });

    it('refuses Basic credentials with a NUL as 401, and a push with a NUL as 400', async () => {
      const message = { subId: 's-1', msisdn: '79991234567', message: { title: 'Sale', text: 'Now' } };
      for (const [l, p] of [
        [`${login}${NUL}`, pushNewPassword],
        [login, `${pushNewPassword}${NUL}`],
      ] as const) {
        expect(
          await answer(await call('POST', '/public/push/single', message, { authorization: basicAuthHeader(l, p) })),
        ).toMatchObject({ status: 401, body: { status: 'UNAUTHORIZED' } });
      }
      const auth = { authorization: basicAuthHeader(login, pushNewPassword) };
      const bad = await answer(
        await call('POST', '/public/push/single', { ...message, message: { title: `Sale${NUL}`, text: 'Now' } }, auth),
      );
      expect(bad).toMatchObject({ status: 400, body: { errors: [`message.title: ${CONTROL}`] } });
    });

    it('refuses %00 in a path or query parameter with 400', async () => {
      for (const path of [
        `/sandbox/push/accounts/${login}%00`,
        '/sandbox/webhooks?owner=a%00b',
        `/sandbox/app/invoices?cardNumber=${card.cardNumber}%00`,
      ]) {
        expect(await answer(await call('GET', path))).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
      }
    });

    it('answers a wrong method on a known path with 405 and Allow, before any auth', async () => {
      const checkout = await answer(await call('GET', '/checkout'));
      expect(checkout).toMatchObject({
        status: 405,
        body: { status: 'METHOD_NOT_ALLOWED', errors: ['method: must be POST'] },
      });
      expect(checkout.headers.get('allow')).toBe('POST');
      // GET /public/push/{messageId} serves this path too.
      const single = await answer(await call('DELETE', '/public/push/single'));
      expect(single).toMatchObject({ status: 405, body: { errors: ['method: must be GET or HEAD or POST'] } });
      expect(single.headers.get('allow')).toBe('GET, HEAD, POST');
      expect((await answer(await call('POST', '/sandbox/loyalty/target', {}))).headers.get('allow')).toBe(
        'GET, HEAD, PUT',
      );
      expect((await answer(await call('GET', '/no/such/route'))).status).toBe(404);
    });

    it('wrote none of the secrets, card numbers or sessions to its log', () => {
      const text = log.text();
      expect(text.length).toBeGreaterThan(0);
      const cards = [card, cardBound].flatMap((c) => [
        c.cardNumber,
        c.cardSession,
        ...(c.cardKey === null ? [] : [c.cardKey]),
      ]);
      expect(
        leakedSecrets(text, [
          key,
          webhookSecret,
          callbackSecret,
          pushPassword,
          pushNewPassword,
          loyaltyPassword,
          ...cards,
        ]),
      ).toEqual([]);
      expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
    });
  },
);
