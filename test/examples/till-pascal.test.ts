import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { have, runTill, type Target } from '../support/till-run.js';

/**
 * examples/till-pascal against a scripted cash desk on the HTTP API, for what `demo` does not do on demand (the
 * run against `demo` is in tills.test.ts): the first POST /v1/payments and the first receipt answered 503 with a
 * retryable status, the first event stream ended by the server after one event, the next one repeating that event,
 * splitting the next across writes and sending a heartbeat comment.
 */

const pascalReady = have(
  ['fpc'],
  ['-iV'],
  'fpc not found: skipping the Object Pascal reference till (apt-get install -y fpc, as .ci/run does, to run it)',
);

interface Desk {
  target: Target;
  /** Each POST's path and paymentId; each event stream's Last-Event-ID. */
  posts: Array<{ path: string; paymentId?: string }>;
  lastEventIds: Array<string | undefined>;
  close(): Promise<void>;
}

async function startScriptedHttpDesk(): Promise<Desk> {
  const posts: Desk['posts'] = [];
  const lastEventIds: Desk['lastEventIds'] = [];
  const open = new Set<ServerResponse>();
  let confirmed = false;
  let paymentId = ''; // the till's own, from its first POST /v1/payments
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const refuse = (res: ServerResponse, code: string) =>
    json(res, 503, { status: code, errors: [`${code}: retry`] }, { 'retry-after': '0' });
  const event = (seq: number, phase: string, more: object = {}) =>
    `event: pay.sessionUpdated\ndata: ${JSON.stringify({ paymentId, seq, phase, ...more })}\nid: ${seq}\n\n`;

  function stream(req: IncomingMessage, res: ServerResponse) {
    const after = req.headers['last-event-id'] as string | undefined;
    lastEventIds.push(after);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    open.add(res);
    res.on('close', () => open.delete(res));
    if (after === undefined) {
      res.end(`retry: 100\n\n${event(1, 'checking')}`); // the server ends this one: the till must resume after 1
    } else if (after === '1') {
      const pending = event(2, 'pending', { transactionId: 'trx-1' });
      res.write(`: keep-alive\n\n${event(1, 'checking')}${pending.slice(0, 25)}`);
      setTimeout(() => res.write(pending.slice(25)), 50);
    } else if (confirmed) res.write(event(3, 'succeeded', { transactionId: 'trx-1' }));
  }

  function answer(req: IncomingMessage, res: ServerResponse, body: any) {
    const url = req.url ?? '';
    if (url === '/sandbox/cards') return json(res, 200, { cardNumber: '4000000000000001', barcode: 'CM;4;x;1' });
    if (url.startsWith('/sandbox/app/invoices')) return json(res, 200, { invoices: [{ transactionId: 'trx-1' }] });
    if (url === '/sandbox/app/transactions/trx-1/confirm') {
      confirmed = true;
      return json(res, 200, { transactionId: 'trx-1', status: 'processing' });
    }
    if (req.headers.authorization !== 'Bearer scripted-key') {
      return json(res, 401, { status: 'UNAUTHORIZED', errors: ['a till key is needed'] });
    }
    if (url === '/v1/payments' && paymentId === '') paymentId = body.paymentId;
    const payment = `/v1/payments/${paymentId}`;
    if (req.method === 'GET' && url === `${payment}/events`) return stream(req, res);
    posts.push({ path: url, paymentId: body?.paymentId });
    const tries = posts.filter((p) => p.path === url).length;
    if (url === '/v1/barcode/verify') return json(res, 200, { resultCode: 'CARDSESSION_AVAILABLE', reason: 'OK' });
    if (url === '/v1/payments' && tries === 1) return refuse(res, 'PAYMENT_BUSY');
    if (url === '/v1/payments') return json(res, 200, { paymentId, phase: 'pending', totalAmount: 25000 });
    if (url === `${payment}/receipt` && tries === 1) return refuse(res, 'DATABASE_UNAVAILABLE');
    if (url === `${payment}/receipt`) return json(res, 200, { paymentId, receiptSent: true });
    if (url === `${payment}/refund`) return json(res, 200, { phase: 'refunded', refundedAmount: 25000 });
    json(res, 404, { status: 'NOT_FOUND', errors: [url] });
  }

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => answer(req, res, text === '' ? undefined : JSON.parse(text)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target: { cashDeskUrl: url, tillKey: 'scripted-key', sandboxUrl: url },
    posts,
    lastEventIds,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!pascalReady)('examples/till-pascal against a scripted cash desk', () => {
  it('retries the 503s, resumes each stream after the last id it took, takes each event once', async () => {
    const desk = await startScriptedHttpDesk();
    try {
      const run = await runTill('till-pascal', desk.target);
      const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(run.code, said).toBe(0);
      expect(run.stdout, said).toMatch(/POST \/v1\/payments answered PAYMENT_BUSY: again in/);
      expect(run.stdout, said).toMatch(/POST \/v1\/payments\/\S+\/receipt answered DATABASE_UNAVAILABLE: again in/);
      expect(run.stdout, said).toMatch(/connection lost \(the server ended the stream\): reconnecting/);
      const taken = [...run.stdout.matchAll(/pay\.sessionUpdated \S+ seq (\d+):/g)].map((m) => Number(m[1]));
      expect(taken, said).toEqual([1, 2, 3]);
      expect(desk.lastEventIds, said).toEqual([undefined, '1', '2']);
      const starts = desk.posts.filter((p) => p.path === '/v1/payments');
      expect(starts).toHaveLength(2);
      expect(starts[1]!.paymentId).toBe(starts[0]!.paymentId);
      expect(run.stdout, said).toMatch(/^phase: succeeded$/m);
      expect(run.stdout, said).toMatch(/^refund: 25000 kopecks, phase refunded$/m);
    } finally {
      await desk.close();
    }
  }, 240_000);

  it('stops with exit 1 and the stable code when the till key is refused, without retrying', async () => {
    const desk = await startScriptedHttpDesk();
    try {
      const run = await runTill('till-pascal', { ...desk.target, tillKey: 'wrong-key' });
      const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(run.code, said).toBe(1);
      expect(run.stdout, said).toMatch(/^till: refused: UNAUTHORIZED \(HTTP 401\)/m);
      expect(run.stdout, said).not.toMatch(/again in/);
    } finally {
      await desk.close();
    }
  }, 240_000);
});
