import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionUpdatedEvent } from '../../../../src/contracts/pay/index.js';
import { sandboxSchemeCases, startPayHarness, type PayHarness } from './harness.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A merchant's webhook endpoint: records every POST; answers 500 to the first `failFirst` ones. */
async function receiver(failFirst = 0): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  let failures = failFirst;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = failures-- > 0 ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pay`, received, server };
}

async function until<T>(what: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Real clock here: the standardwebhooks package checks webhook-timestamp against its own now.
describe.each(sandboxSchemeCases('sandbox Pay webhooks'))(
  'sandbox Pay transaction.updated webhooks on $name ($scheme)',
  (dbCase) => {
    let h: PayHarness;
    let hook: Awaited<ReturnType<typeof receiver>>;
    let secret: string;
    beforeAll(async () => {
      hook = await receiver(1);
      h = await startPayHarness(dbCase, { realClock: true, webhookUrl: hook.url });
      const partner = await h.sim('POST', '/sandbox/partners', {
        partnerId: h.partnerId,
        key: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      });
      secret = partner.body.webhookSecret;
      expect(partner.body.webhookUrl).toBe(hook.url);
    });
    afterAll(async () => {
      await h?.close();
      hook?.server.close();
    });

    const eventsOf = (transactionId: string) =>
      hook.received
        .map((r) => ({ r, event: JSON.parse(r.body) as TransactionUpdatedEvent }))
        .filter(({ event }) => event.data.transactionId === transactionId);

    it(
      'POSTs every change, signed so that the standardwebhooks package ' + 'verifies it, retrying a failed delivery',
      async () => {
        const { transactionId } = await h.invoice();
        await h.sim('POST', `/sandbox/app/transactions/${transactionId}/confirm`);
        await h.waitStatus(transactionId, (s) => s.status === 'succeeded');
        await h.pay('/refund', { transactionId, refundId: 'half', amount: 1000 });
        const events = await until(() => {
          const seen = new Set(eventsOf(transactionId).map(({ r }) => r.headers['webhook-id']));
          return seen.size >= 4 ? eventsOf(transactionId) : undefined;
        });
        const verifier = new Webhook(secret);
        for (const { r, event } of events) {
          const verified = verifier.verify(r.body, r.headers as Record<string, string>) as TransactionUpdatedEvent;
          expect(verified).toEqual(event);
          expect(TransactionUpdatedEvent.safeParse(event).success).toBe(true);
          expect(r.headers['content-type']).toBe('application/json');
        }
        // Deliveries are concurrent and retried, so arrival order is not change order: the id's version is.
        const byId = new Map(
          events
            .map(({ r, event }) => [String(r.headers['webhook-id']), event] as const)
            .sort(([a], [b]) => Number(a.split('_v')[1]) - Number(b.split('_v')[1])),
        );
        expect([...byId.values()].map((e) => [e.data.status, e.data.refundedAmount])).toEqual([
          ['created', 0],
          ['processing', 0],
          ['succeeded', 0],
          ['succeeded', 1000],
        ]);
        expect([...byId.keys()]).toEqual([1, 2, 3, 4].map((v) => `evt_${transactionId}_v${v}`));
        expect(() =>
          verifier.verify(
            events[0]!.r.body.replace('created', 'succeeded'),
            events[0]!.r.headers as Record<string, string>,
          ),
        ).toThrow();
        // The receiver failed the very first POST: the outbox retried it and lists both attempts.
        const { body } = await h.sim('GET', `/sandbox/webhooks?topic=pay&owner=${h.partnerId}`);
        const first = body.deliveries.find((d: { id: string }) => d.id === `evt_${transactionId}_v1`);
        expect(first).toMatchObject({
          status: 'delivered',
          attempts: 2,
          url: hook.url,
          eventType: 'transaction.updated',
        });
        expect(first.history.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([500, 204]);
      },
    );

    it('announces a customer cancel and a superseded invoice', async () => {
      const cancelled = await h.invoice();
      await h.sim('POST', `/sandbox/app/transactions/${cancelled.transactionId}/cancel`);
      const old = await h.invoice();
      await h.pay(
        '/checkout',
        h.checkoutBody(old.cardSession, `${old.requestId}-2`, {
          items: [{ name: 'Milk', article: 'A-1', quantity: 1, price: 100 }],
          discountAmount: 0,
          totalAmount: 100,
        }),
      );
      for (const id of [cancelled.transactionId, old.transactionId]) {
        const last = await until(() => eventsOf(id).find(({ event }) => event.data.status === 'cancelled'));
        expect(last.event.data.statusClass).toBe('unsuccessful');
      }
    });

    it('redelivers a delivery on request and 404s an unknown one', async () => {
      const { body } = await h.sim('GET', '/sandbox/webhooks?topic=pay');
      expect(body.deliveries.length).toBeGreaterThan(0);
      expect((await h.sim('POST', '/sandbox/webhooks/msg_nope/redeliver')).status).toBe(404);
    });
  },
);
