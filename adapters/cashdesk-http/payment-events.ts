import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { SessionUpdate } from '../../src/contracts/cashdesk-payments.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { proxyFriendlyStream } from '../http-server/event-stream-headers.js';

/** How a payment's event stream behaves. */
export interface PaymentEventsOptions {
  /** A comment line this often, so that a proxy that cuts idle streams (often at 60 s) keeps it. Default 15 000 ms. */
  heartbeatMs?: number;
  /** The `retry:` the stream asks a reconnecting client to wait, in ms. Default 2000. */
  retryMs?: number;
}

/**
 * The `Last-Event-ID` a reconnecting client sends: the `seq` of the last event it got (0 when absent or unreadable).
 */
export function lastEventId(header: string | undefined): number {
  return header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : 0;
}

/**
 * `GET /v1/payments/{paymentId}/events`: a payment's `pay.sessionUpdated`
 * events as server-sent events, each with its `seq` as `id:`. A new stream
 * begins with the current state (restated); a client that comes back with
 * `Last-Event-ID` gets the events after it from the payment's kept history
 * (older: the current state, restated), then every newer one, each once.
 * Both reads come before the stream opens, so a failure (the database down)
 * is an answer with its status, not a stream that opens and dies.
 */
export async function paymentEventStream(
  c: Context<NodeEnv>,
  service: Payments,
  tillId: string,
  paymentId: string,
  release: () => void,
  options: PaymentEventsOptions = {},
): Promise<Response> {
  const queue: SessionUpdate[] = [];
  const after = lastEventId(c.req.header('last-event-id'));
  let wake: (() => void) | undefined;
  let unsubscribe: () => void;
  try {
    // Listening first: an event written while the history is read is then queued, never lost.
    unsubscribe = await service.subscribe(tillId, (update) => {
      if (update.paymentId !== paymentId) return;
      queue.push(update);
      wake?.();
    });
    try {
      queue.unshift(...(await service.intent('events', tillId, { paymentId, afterSeq: after })).events);
    } catch (error) {
      unsubscribe();
      throw error;
    }
  } catch (error) {
    release();
    throw error;
  }
  proxyFriendlyStream(c);
  return streamSSE(c, async (stream) => {
    let sent = after;
    let first = true;
    const heartbeat = setInterval(() => {
      void stream.write(': keep-alive\n\n').catch(() => {});
    }, options.heartbeatMs ?? 15_000);
    stream.onAbort(() => wake?.());
    try {
      while (!stream.aborted && !stream.closed) {
        const next = queue.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        // Told already (the subscription's restated state of what the history just gave, or what the client had).
        if (next.seq !== undefined && next.seq <= sent) continue;
        sent = Math.max(sent, next.seq ?? 0);
        await stream.writeSSE({
          event: 'pay.sessionUpdated',
          data: JSON.stringify(next),
          ...(next.seq === undefined ? {} : { id: String(next.seq) }),
          ...(first ? { retry: options.retryMs ?? 2_000 } : {}),
        });
        first = false;
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      release();
    }
  });
}
