import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { createVerifier, type Verifier } from '../../../src/entries/index.js';
import type { RunningSandbox, Sandbox } from '../../../src/entries/sandbox.js';
import { createPayModule } from '../../../src/sandbox/pay/index.js';
import { pushModule } from '../../../src/sandbox/push/module.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { captureLog, type CapturedLog } from '../../support/log-capture.js';
import { uid } from './pay/harness.js';
import { sandboxCases } from '../../support/sandbox.js';

/** Sized by a case count, not by time: each run is one checkout and one push. */
const RUNS = 60;

/** Text with what breaks storage: C0 controls, DEL, lone surrogates, next to any code point. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom(
        '\u0000',
        '\u0001',
        '\u0007',
        '\t',
        '\n',
        '\r',
        '\u001b',
        '\u001f',
        '\u007f',
        '\ud800',
        '\udfff',
        '\udc00\ud800',
        '\u2028',
        '\ufeff',
        '\\',
        '"',
      ),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe.each(sandboxCases('the hostile-text property test'))(
  'the sandbox on $name, given arbitrary text in free-text fields',
  (dbCase) => {
    const key = randomBytes(32).toString('hex');
    const partnerId = uid('partner');
    const login = uid('push');
    const password = `reset-${randomBytes(12).toString('hex')}`;
    let sandbox: Sandbox;
    let log: CapturedLog;
    let verifier: Verifier;
    let cardSession: string;
    let running: RunningSandbox;
    const call = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
      sandbox.app.request(path, { method, body, headers: { 'content-type': 'application/json', ...headers } });

    beforeAll(async () => {
      log = captureLog('warn');
      running = await dbCase.start({ logger: log.logger }, [createPayModule(), pushModule]);
      sandbox = running.sandbox;
      verifier = createVerifier({ ...BASE_CONFIG, key, partnerId, replay: false });
      expect((await call('POST', '/sandbox/partners', JSON.stringify({ partnerId, key }))).status).toBe(200);
      const card = await call('POST', '/sandbox/cards', JSON.stringify({ partnerId }));
      cardSession = ((await card.json()) as { cardSession: string }).cardSession;
      const created = await call('POST', '/sandbox/push/accounts', JSON.stringify({ login, partner: 'p-1' }));
      const initial = ((await created.json()) as { password: string }).password;
      expect(
        (
          await call('PUT', '/public/user/reset-password', JSON.stringify({ password }), {
            authorization: basicAuthHeader(login, initial),
          })
        ).status,
      ).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await running?.close();
    });

    it('never answers a Pay /checkout with a 5xx, whatever the item names, articles and offers say', async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, hostileText, hostileText, async (name, article, marketingMessage) => {
          const body = JSON.stringify({
            requestId: uid('req'),
            cardSession,
            discountAmount: 0,
            totalAmount: 300,
            items: [
              { name, article, quantity: 1, price: 100 },
              { name: 'Bread', article: article.slice(0, 3) || 'B', quantity: 2, price: 100 },
            ],
          });
          const checkout = await call('POST', '/checkout', body, { 'x-wallet-token': verifier.getToken(body) });
          expect(checkout.status, await checkout.clone().text()).toBeLessThan(500);
          const task = JSON.stringify({
            requestId: uid('task'),
            cardSession,
            discountAmount: 0,
            totalAmount: 0,
            offers: [{ providerId: 'wallet-sbp', marketingMessage }],
          });
          const answered = await call('POST', '/availability-info/task', task, {
            'x-wallet-token': verifier.getToken(task),
          });
          expect(answered.status, await answered.clone().text()).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('never answers a Push single with a 5xx, whatever the title, text and subId say', async () => {
      const authorization = basicAuthHeader(login, password);
      let n = 0;
      await fc.assert(
        fc.asyncProperty(hostileText, hostileText, hostileText, async (title, text, subId) => {
          const msisdn = String(79_990_000_000 + n++);
          const res = await call(
            'POST',
            '/public/push/single',
            JSON.stringify({ msisdn, subId, message: { title, text } }),
            { authorization },
          );
          expect(res.status, await res.clone().text()).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('logged no error while doing so', () => {
      expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
    });
  },
);
