import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createPayWebhookHandler, createTransactionUpdates } from '../../../src/entries/pay.js';
import { databaseUnavailable } from '../../../src/db/unavailable.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import type { TransactionState } from '../../../src/contracts/pay/index.js';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);
const secret = generateWebhookSecret();
const state: TransactionState = {
  transactionId: 'trx-9',
  requestId: 'req-9',
  status: 'succeeded',
  statusClass: 'successful',
  totalAmount: 17_000,
  refundedAmount: 0,
  updatedAt: '2026-11-23T10:00:00Z',
};
const body = JSON.stringify({ type: 'transaction.updated', timestamp: '2026-11-23T10:00:00Z', data: state });

/** Signed by the standardwebhooks package, not by our signer. */
function request(id: string, text = body, key = secret, at = NOW): Request {
  const signature = new Webhook(key).sign(id, new Date(at), text);
  return new Request('http://merchant.test/webhooks/pay', {
    method: 'POST',
    body: text,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at / 1000)),
      'webhook-signature': signature,
      'content-type': 'application/json',
    },
  });
}

describe('createPayWebhookHandler', () => {
  it('publishes a verified transaction.updated once, answering 204 to redeliveries too', async () => {
    const updates = createTransactionUpdates();
    const seen: unknown[] = [];
    updates.subscribe('trx-9', (s) => seen.push(s));
    const events: string[] = [];
    const handler = createPayWebhookHandler({
      secrets: [secret],
      updates,
      clock: () => NOW,
      onEvent: (_e, id) => void events.push(id),
    });
    expect((await handler(request('msg_1'))).status).toBe(204);
    expect((await handler(request('msg_1'))).status).toBe(204);
    expect(seen).toEqual([state]);
    expect(events).toEqual(['msg_1']);
  });

  it('refuses a wrong secret, a tampered body and a stale timestamp with 401 and the webhook code', async () => {
    const handler = createPayWebhookHandler({ secrets: secret, clock: () => NOW });
    const wrong = await handler(request('msg_2', body, generateWebhookSecret()));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status: 'WEBHOOK_SIGNATURE_INVALID', errors: [expect.any(String)] });
    const signed = request('msg_3');
    const tampered = new Request(signed.url, {
      method: 'POST',
      headers: signed.headers,
      body: body.replace('17000', '1'),
    });
    expect((await handler(tampered)).status).toBe(401);
    const stale = await handler(request('msg_4', body, secret, NOW - 600_000));
    expect(await stale.json()).toMatchObject({ status: 'WEBHOOK_TIMESTAMP_STALE' });
  });

  it("refuses a signed body that is not the contract's event with 400, publishing nothing", async () => {
    const updates = createTransactionUpdates();
    const seen: unknown[] = [];
    updates.subscribe('trx-9', (s) => seen.push(s));
    const handler = createPayWebhookHandler({ secrets: secret, updates, clock: () => NOW });
    // A status word of any spelling is kept (the dialect classes it); a status that is no word at all is refused.
    const bad = await handler(
      request('msg_5', JSON.stringify({ type: 'transaction.updated', data: { ...state, status: 42 } })),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: string[] }).errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^data\.status: /)]),
    );
    expect((await handler(request('msg_6', 'not json'))).status).toBe(400);
    expect(seen).toEqual([]);
  });

  it(
    "answers 500 when the merchant's onEvent fails, so the service " + 'redelivers, and accepts the redelivery',
    async () => {
      let fail = true;
      const handler = createPayWebhookHandler({
        secrets: secret,
        clock: () => NOW,
        onEvent: () => {
          if (fail) throw new Error('db down');
        },
      });
      expect((await handler(request('msg_7'))).status).toBe(500);
      fail = false;
      expect((await handler(request('msg_7'))).status).toBe(204);
    },
  );

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After when onEvent throws DATABASE_UNAVAILABLE', async () => {
    const onEvent = () => {
      throw databaseUnavailable('ECONNREFUSED');
    };
    const handler = createPayWebhookHandler({ secrets: secret, clock: () => NOW, onEvent });
    const answer = await handler(request('msg_8'));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(await answer.json()).toMatchObject({ status: 'DATABASE_UNAVAILABLE' });
  });
});

describe('createTransactionUpdates', () => {
  it('gives a late subscriber the last known state and stops after unsubscribe', () => {
    const updates = createTransactionUpdates({ remember: 1 });
    updates.publish(state);
    const seen: string[] = [];
    const off = updates.subscribe('trx-9', (s) => seen.push(s.status));
    off();
    updates.publish({ ...state, status: 'rejected' });
    expect(seen).toEqual(['succeeded']);
    updates.publish({ ...state, transactionId: 'trx-10' }); // evicts trx-9 (remember: 1)
    updates.subscribe('trx-9', (s) => seen.push(s.status));
    expect(seen).toEqual(['succeeded']);
  });
});
