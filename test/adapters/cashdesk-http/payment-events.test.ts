import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { lastEventId, paymentEventStream } from '../../../adapters/cashdesk-http/payment-events.js';
import type { NodeEnv } from '../../../adapters/http-server/node-env.js';
import type { Payments } from '../../../src/cashdesk/payments/api.js';
import type { UpdateListener } from '../../../src/cashdesk/payments/feed.js';
import type { SessionUpdate } from '../../../src/contracts/cashdesk-payments.js';

/**
 * A payment with a history of events 1..n and a till subscription that restates it on subscribe, as the service does.
 */
function payments(history: SessionUpdate[], keptFrom = 1) {
  const listeners = new Set<UpdateListener>();
  const current = () => ({ ...history.at(-1)!, restated: true as const });
  const service = {
    async subscribe(_tillId: string, listener: UpdateListener) {
      listeners.add(listener);
      listener(current());
      return () => listeners.delete(listener);
    },
    async intent(name: string, _tillId: string, { afterSeq: after = 0 }: { afterSeq?: number }) {
      if (name !== 'events') throw new Error(`no ${name} here`);
      if (after === 0 || after + 1 < keptFrom) return { events: [current()] };
      return { events: history.filter((u) => u.seq! > after) };
    },
  } as unknown as Payments;
  const emit = (update: SessionUpdate) => {
    history.push(update);
    for (const listener of listeners) listener(update);
  };
  return { service, emit, listening: () => listeners.size };
}

const event = (seq: number, phase: SessionUpdate['phase']): SessionUpdate => ({ paymentId: 'p1', phase, seq });

/** Reads a stream's raw text until `done` holds for it; aborts it then. */
async function read(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

function app(service: Payments, heartbeatMs?: number) {
  const hono = new Hono<NodeEnv>();
  hono.get('/events', (c) =>
    paymentEventStream(c, service, 'till-1', 'p1', () => {}, { heartbeatMs: heartbeatMs ?? 3_600_000 }),
  );
  return hono;
}

describe('paymentEventStream', () => {
  it('numbers each event with its seq, asks for a retry delay, and tells the current state once', async () => {
    const { service, emit } = payments([event(1, 'checking'), event(2, 'offered')]);
    const response = await app(service).request('/events');
    const reading = read(response, (text) => ids(text).includes(3));
    emit(event(3, 'checkout'));
    const text = await reading;
    expect(ids(text)).toEqual([2, 3]);
    expect(text).toMatch(/^retry: 2000$/m);
  });

  it('tells proxies not to buffer or cache the stream (X-Accel-Buffering: no, Cache-Control: no-cache)', async () => {
    const { service } = payments([event(1, 'checking')]);
    const response = await app(service).request('/events');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    await read(response, (text) => ids(text).includes(1));
  });

  it('replays the events after Last-Event-ID, then the newer ones', async () => {
    const { service, emit } = payments([
      event(1, 'checking'),
      event(2, 'offered'),
      event(3, 'checkout'),
      event(4, 'pending'),
    ]);
    const response = await app(service).request('/events', { headers: { 'last-event-id': '2' } });
    const reading = read(response, (text) => ids(text).includes(5));
    emit(event(5, 'succeeded'));
    expect(ids(await reading)).toEqual([3, 4, 5]);
  });

  it('restates the current state when the events after Last-Event-ID are no longer kept', async () => {
    const { service } = payments([event(1, 'checking'), event(2, 'offered'), event(3, 'checkout')], 3);
    const text = await read(
      await app(service).request('/events', { headers: { 'last-event-id': '1' } }),
      (t) => ids(t).length > 0,
    );
    expect(ids(text)).toEqual([3]);
    expect(text).toContain('"restated":true');
  });

  it('sends a comment line while there is nothing to tell', async () => {
    const { service } = payments([event(1, 'offered')]);
    const text = await read(await app(service, 20).request('/events'), (t) => t.includes(': keep-alive'));
    expect(text).toMatch(/^: keep-alive$/m);
  });

  it('reads Last-Event-ID as a number, and anything else as none', () => {
    expect([
      lastEventId('17'),
      lastEventId(' 3 '),
      lastEventId('abc'),
      lastEventId(undefined),
      lastEventId('-1'),
    ]).toEqual([17, 3, 0, 0, 0]);
  });
});
