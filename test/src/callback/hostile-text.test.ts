import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackReceiver, type CallbackReceiver } from '../../../src/entries/callback.js';
import type { Database } from '../../../src/db/index.js';
import { generateWebhookSecret, signWebhook } from '../../../src/entries/webhooks.js';
import { databaseCases } from '../../support/databases.js';
import { captureLog, leakedSecrets, type CapturedLog } from '../../support/log-capture.js';

const NUL = '\u0000';
const CONTROL = 'must not contain control characters';

async function answer(res: Response) {
  const body = JSON.parse(await res.text()) as { status: string; errors: string[] };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(body).toEqual({ status: expect.any(String), errors: expect.any(Array), requestId: expect.any(String) });
  return { status: res.status, body, headers: res.headers };
}

describe.each(databaseCases('the callback receiver hostile-text checks'))(
  'the callback receiver on $name, given NUL bytes and deep JSON',
  ({ open }) => {
    const secret = generateWebhookSecret();
    const queryToken = `query-${'0123456789abcdef'.repeat(2)}`;
    let db: Database;
    let log: CapturedLog;
    let receiver: CallbackReceiver;
    let url: string;
    const send = (id: string, body: string) =>
      fetch(`${url}/callback`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          ...signWebhook(secret, { id, timestampSeconds: Math.floor(Date.now() / 1000), body }),
        },
      });
    const event = (overrides: Record<string, string> = {}) => ({
      eventId: 'evt_1',
      type: 'push.delivered',
      messageId: 'msg_1',
      subId: 'promo',
      msisdn: '79991234567',
      occurredAt: '2026-11-23T09:00:00Z',
      ...overrides,
    });

    beforeAll(async () => {
      db = await open();
      log = captureLog();
      receiver = await createCallbackReceiver({ secrets: secret, database: db, logger: log.logger, queryToken });
      url = (await receiver.listen()).url;
    }, 120_000);
    afterAll(async () => {
      await receiver?.close();
      await db?.close();
    });

    it('refuses a signed event with a NUL in a field with 400 naming it, and stores nothing', async () => {
      const body = JSON.stringify(event({ subId: `promo${NUL}` }));
      expect(await answer(await send('evt_1', body))).toMatchObject({
        status: 400,
        body: { status: 'BAD_REQUEST', errors: [`subId: ${CONTROL}`] },
      });
      const res = await fetch(`${url}/messages/msg_1`, { headers: { authorization: `Bearer ${queryToken}` } });
      expect(res.status).toBe(404);
    });

    it('refuses a signed body nested 5000 deep with 400', async () => {
      const body = `{"eventId":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      expect(await answer(await send('evt_2', body))).toMatchObject({
        status: 400,
        body: { errors: ['body: nesting deeper than 64 levels'] },
      });
    });

    it('refuses %00 in the messageId path parameter with 400', async () => {
      const res = await fetch(`${url}/messages/msg%00`, { headers: { authorization: `Bearer ${queryToken}` } });
      expect(await answer(res)).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
    });

    it('answers a wrong method with 405 and Allow', async () => {
      const res = await answer(await fetch(`${url}/callback`));
      expect(res).toMatchObject({ status: 405, body: { status: 'METHOD_NOT_ALLOWED' } });
      expect(res.headers.get('allow')).toBe('POST');
    });

    it('wrote neither the secret nor the query token to its log, and no error', () => {
      expect(leakedSecrets(log.text(), [secret, secret.slice('whsec_'.length), queryToken])).toEqual([]);
      expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
    });
  },
);
