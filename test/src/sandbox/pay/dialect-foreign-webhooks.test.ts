import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayHarness, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

/** A merchant's webhook endpoint that records every body and answers 204. */
async function receiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pay`, bodies, server };
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

const cases = sandboxCases('sandbox Pay foreign webhooks');

describe.each(cases)('sandbox Pay foreign dialect webhooks on $name', (dbCase) => {
  let h: PayHarness;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hook = await receiver();
    h = await startPayHarness(dbCase, { webhookUrl: hook.url, sandbox: { dialect: 'foreign' } });
  });
  afterAll(async () => {
    await h?.close();
    hook?.server.close();
  });

  it('sends transaction.updated in the words of its answers: numeric ids, NEW, ON_HOLD, PAID, the refund', async () => {
    await h.sim('POST', '/sandbox/bank/refunds', { mode: 'approve', delayMs: 0 });
    const { transactionId } = await h.invoice();
    const id = transactionId as unknown as number;
    await h.sim('POST', `/sandbox/app/transactions/${id}/confirm`);
    await h.waitStatus(id as never, (s) => s.status === 'PAID');
    expect((await h.pay('/refund', { transactionId: id, refundId: 'all' })).body.status).toBe('PENDING');
    const events = await until(() => {
      const mine = hook.bodies.map((b) => JSON.parse(b)).filter((e) => e.data.transactionId === id);
      return mine.length >= 4 ? mine : undefined;
    });
    // Deliveries run concurrently, so the order of arrival is not the order of change: compare as a set.
    const seen = events.map((e) => `${e.data.status}/${e.data.refundedAmount > 0 ? 'refunded' : '-'}`).sort();
    // The bank receives at once here, so the confirmed payment is told ON_HOLD until the bank answers.
    expect(seen).toEqual(['NEW/-', 'ON_HOLD/-', 'PAID/-', 'PAID/refunded']);
    for (const e of events) {
      expect(e.type).toBe('transaction.updated');
      expect(e.data).not.toHaveProperty('statusClass');
    }
  });
});
