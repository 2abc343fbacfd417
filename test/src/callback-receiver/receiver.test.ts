import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackReceiver, type CallbackReceiver } from '../../../src/entries/callback.js';
import type { CallbackEvent } from '../../../src/contracts/callback/index.js';
import type { Database } from '../../../src/db/index.js';
import { generateWebhookSecret, signWebhook } from '../../../src/entries/webhooks.js';
import { databaseCases } from '../../support/databases.js';

const secret = generateWebhookSecret();
let seq = 0;

function event(overrides: Partial<CallbackEvent> = {}): CallbackEvent {
  seq++;
  return {
    eventId: `evt_${process.pid}_${seq}`,
    type: 'push.delivered',
    messageId: `msg_${seq}`,
    subId: 'promo',
    msisdn: '79991234567',
    occurredAt: new Date(Date.UTC(2026, 10, 23, 9, 0, seq)).toISOString(),
    ...overrides,
  };
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, json: await response.json() };
}

const signed = (e: CallbackEvent, withSecret = secret, timestampSeconds = Math.floor(Date.now() / 1000)) => {
  const body = JSON.stringify(e);
  return { body, headers: { ...signWebhook(withSecret, { id: e.eventId, timestampSeconds, body }) } };
};

describe.each(databaseCases('the callback receiver'))('callback receiver on $name', ({ open }) => {
  let db: Database;
  let receiver: CallbackReceiver;
  let url: string;
  const handled: CallbackEvent[] = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    db = await open();
    receiver = await createCallbackReceiver({
      secrets: secret,
      database: db,
      handlerRetryBaseMs: 20,
      handlerRetryMaxMs: 40,
      pollMs: 20,
      queryToken: 'query-token-0123456789',
      handler: (e) => {
        if (e.subId === 'flaky' && failuresLeft-- > 0) throw new Error('merchant system down');
        handled.push(e);
      },
    });
    url = (await receiver.listen()).url;
  });
  afterAll(async () => {
    await receiver.close();
    await db.close();
  });

  it('stores an event our sender signed, answers 200, and hands it to the handler once', async () => {
    const e = event();
    const { body, headers } = signed(e);
    expect(await post(`${url}/callback`, body, headers)).toEqual({
      status: 200,
      json: { status: 'OK', duplicate: false },
    });
    await expect.poll(() => handled.filter((h) => h.eventId === e.eventId)).toEqual([e]);
  });

  it('accepts what the standardwebhooks package signs', async () => {
    const e = event({ type: 'push.read' });
    const body = JSON.stringify(e);
    const now = new Date();
    const headers = {
      'webhook-id': e.eventId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(e.eventId, now, body),
    };
    expect((await post(`${url}/callback`, body, headers)).status).toBe(200);
    expect((await receiver.store.messageState(e.messageId))?.status).toBe('READ');
  });

  it('stores a redelivered event once and answers it 200 as a duplicate', async () => {
    const e = event();
    const first = signed(e);
    expect((await post(`${url}/callback`, first.body, first.headers)).json.duplicate).toBe(false);
    // A later attempt carries a fresh timestamp and signature, same webhook-id.
    const again = signed(e, secret, Math.floor(Date.now() / 1000) + 1);
    expect(await post(`${url}/callback`, again.body, again.headers)).toEqual({
      status: 200,
      json: { status: 'OK', duplicate: true },
    });
    const { rows } = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM callback_events WHERE event_id = $1', [
      e.eventId,
    ]);
    expect(rows[0]!.n).toBe(1);
    await expect.poll(() => handled.filter((h) => h.eventId === e.eventId).length).toBe(1);
  });

  it('stores concurrent deliveries of one event once, and a crowd of distinct events each once', async () => {
    const e = event();
    const same = await Promise.all(
      Array.from({ length: 5 }, () => {
        const { body, headers } = signed(e);
        return post(`${url}/callback`, body, headers);
      }),
    );
    expect(same.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(same.filter((a) => a.json.duplicate === false)).toHaveLength(1);
    const crowd = Array.from({ length: 50 }, () => event({ subId: 'crowd' }));
    const answers = await Promise.all(
      crowd.map((c) => {
        const { body, headers } = signed(c);
        return post(`${url}/callback`, body, headers);
      }),
    );
    expect(answers.every((a) => a.status === 200 && a.json.duplicate === false)).toBe(true);
    const { rows } = await db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM callback_events WHERE event_id = ANY($1::text[])',
      [[e, ...crowd].map((c) => c.eventId)],
    );
    expect(rows[0]!.n).toBe(51);
  });

  it('refuses a tampered body, a stale or future timestamp and an unknown secret, storing nothing', async () => {
    const cases: Array<[string, { body: string; headers: Record<string, string> }, number, string]> = [];
    const e1 = event();
    const s1 = signed(e1);
    cases.push([
      'tampered',
      { body: s1.body.replace('79991234567', '79990000000'), headers: s1.headers },
      401,
      'WEBHOOK_SIGNATURE_INVALID',
    ]);
    const e2 = event();
    cases.push(['stale', signed(e2, secret, Math.floor(Date.now() / 1000) - 600), 401, 'WEBHOOK_TIMESTAMP_STALE']);
    const e3 = event();
    cases.push(['future', signed(e3, secret, Math.floor(Date.now() / 1000) + 600), 401, 'WEBHOOK_TIMESTAMP_STALE']);
    const e4 = event();
    cases.push(['unknown secret', signed(e4, generateWebhookSecret()), 401, 'WEBHOOK_SIGNATURE_INVALID']);
    const e5 = event();
    const { 'webhook-signature': _s, ...unsigned } = signed(e5).headers;
    cases.push(['unsigned', { body: JSON.stringify(e5), headers: unsigned }, 400, 'WEBHOOK_HEADERS_MISSING']);
    for (const [what, { body, headers }, status, code] of cases) {
      const answer = await post(`${url}/callback`, body, headers);
      expect({ what, status: answer.status, code: answer.json.status }).toEqual({ what, status, code });
    }
    const { rows } = await db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM callback_events WHERE event_id = ANY($1::text[])',
      [[e1, e2, e3, e4, e5].map((e) => e.eventId)],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses a signed body that is not an event, or whose eventId is not the webhook-id', async () => {
    const e = event();
    const other = signed({ ...e, eventId: 'evt_other' });
    const mismatched = {
      body: other.body,
      headers: {
        ...signWebhook(secret, { id: e.eventId, timestampSeconds: Math.floor(Date.now() / 1000), body: other.body }),
      },
    };
    expect(await post(`${url}/callback`, mismatched.body, mismatched.headers)).toMatchObject({
      status: 400,
      json: { status: 'BAD_REQUEST', errors: ['eventId: must equal the webhook-id header'] },
    });
    const bad = JSON.stringify({ ...e, type: 'push.lost' });
    const answer = await post(`${url}/callback`, bad, {
      ...signWebhook(secret, { id: e.eventId, timestampSeconds: Math.floor(Date.now() / 1000), body: bad }),
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toMatch(/^type: /);
  });

  it('keeps an event whose handler throws and hands it over again until it succeeds', async () => {
    failuresLeft = 2;
    const e = event({ subId: 'flaky' });
    const { body, headers } = signed(e);
    expect((await post(`${url}/callback`, body, headers)).status).toBe(200);
    await expect.poll(() => handled.some((h) => h.eventId === e.eventId)).toBe(true);
    // The row is marked handled after the handler returns, in a write of its own: wait for that write, not the call.
    const row = async () =>
      (
        await db.query<{ handler_attempts: number; handled_at: Date | null; last_error: string | null }>(
          'SELECT handler_attempts, handled_at, last_error FROM callback_events WHERE event_id = $1',
          [e.eventId],
        )
      ).rows[0];
    await expect.poll(async () => (await row())?.handled_at).toBeInstanceOf(Date);
    expect(await row()).toMatchObject({ handler_attempts: 3, last_error: null });
  });

  it("answers a message's delivery and read state to the holder of the query token", async () => {
    const delivered = event();
    const read = event({
      type: 'push.read',
      messageId: delivered.messageId,
      occurredAt: new Date(Date.parse(delivered.occurredAt) + 5_000).toISOString(),
    });
    for (const e of [read, delivered]) {
      // out of order on purpose
      const { body, headers } = signed(e);
      expect((await post(`${url}/callback`, body, headers)).status).toBe(200);
    }
    const auth = { authorization: 'Bearer query-token-0123456789' };
    const response = await fetch(`${url}/messages/${delivered.messageId}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      messageId: delivered.messageId,
      subId: 'promo',
      msisdn: '79991234567',
      status: 'READ',
      deliveredAt: delivered.occurredAt,
      readAt: read.occurredAt,
      failedAt: null,
      updatedAt: read.occurredAt,
      events: [
        { eventId: delivered.eventId, type: 'push.delivered' },
        { eventId: read.eventId, type: 'push.read' },
      ],
    });
    expect((await fetch(`${url}/messages/${delivered.messageId}`)).status).toBe(401);
    expect(
      (await fetch(`${url}/messages/${delivered.messageId}`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const missing = await fetch(`${url}/messages/no-such-message`, { headers: auth });
    expect(missing.status).toBe(404);
    expect((await missing.json()).status).toBe('NOT_FOUND');
  });

  it('reports FAILED for a message that could not be delivered', async () => {
    const e = event({ type: 'push.failed' });
    const { body, headers } = signed(e);
    await post(`${url}/callback`, body, headers);
    expect(await receiver.store.messageState(e.messageId)).toMatchObject({
      status: 'FAILED',
      failedAt: e.occurredAt,
      deliveredAt: null,
    });
  });
});

describe('createCallbackReceiver', () => {
  it('refuses bad options and a bad secret at creation', async () => {
    await expect(createCallbackReceiver({ secrets: [] })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(createCallbackReceiver({ secrets: secret, queryToken: 'short' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    await expect(
      createCallbackReceiver({ secrets: 'whsec_!!', database: { dataDir: '/nonexistent/never' } }),
    ).rejects.toMatchObject({ code: 'WEBHOOK_SECRET_INVALID' });
  });
});
