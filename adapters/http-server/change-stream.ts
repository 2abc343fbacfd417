import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TopicFeedListener } from './topic-feed.js';
import { proxyFriendlyStream } from './event-stream-headers.js';

/** Options of {@link streamChanges}. */
export interface ChangeStreamOptions {
  /** Notices within this many ms leave as one event per topic. Default 50. */
  coalesceMs?: number;
  /** A comment line this often keeps proxies from closing a quiet stream. Default 20 000 ms. */
  heartbeatMs?: number;
}

/**
 * Answers with server-sent events: `ready` once subscribed, then `change`
 * events whose data is `{"topic": "..."}`, coalesced, until the client goes or
 * the source closes. Pages fetch again what a topic names: no polling, and
 * nothing private travels in the stream itself.
 *
 * @example
 * app.get('/sandbox/app/events', (c) => streamChanges(c, (l) => ctx.changes.subscribe(l)));
 */
export function streamChanges(
  c: Context,
  subscribe: (listener: TopicFeedListener) => () => void,
  options: ChangeStreamOptions = {},
): Response {
  const coalesceMs = options.coalesceMs ?? 50;
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  proxyFriendlyStream(c);
  return streamSSE(c, async (stream) => {
    const due = new Set<string>();
    let ended = false;
    let wake: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const nudge = () => {
      wake?.();
      wake = undefined;
    };
    const unsubscribe = subscribe({
      change(topic) {
        due.add(topic);
        timer ??= setTimeout(() => {
          timer = undefined;
          nudge();
        }, coalesceMs);
      },
      closed() {
        ended = true;
        nudge();
      },
    });
    stream.onAbort(() => {
      ended = true;
      nudge();
    });
    const heartbeat = setInterval(() => {
      void stream.write(': keep-alive\n\n').catch(() => {});
    }, heartbeatMs);
    heartbeat.unref();
    try {
      await stream.writeSSE({ event: 'ready', data: '{}' });
      while (!ended && !stream.aborted && !stream.closed) {
        if (due.size === 0 || timer !== undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        const topics = [...due];
        due.clear();
        for (const topic of topics) await stream.writeSSE({ event: 'change', data: JSON.stringify({ topic }) });
      }
    } finally {
      clearInterval(heartbeat);
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
    }
  });
}
