import type pg from 'pg';
import { backoffDelay, type RetryPolicy } from '../net/backoff.js';
import type { Queryable } from './database.js';

/**
 * A LISTEN connection shared by the instances of a server, that comes back by
 * itself. Messages on it are hints ("read the rows"), never the data: after a
 * reconnection `onReconnect` runs so the listener reads what it may have missed.
 */
export interface SharedChannel {
  /** Whether the LISTEN connection is up now. */
  readonly connected: boolean;
  /** Sends `payload` (at most ~7900 bytes) to every connection listening, this one included. */
  notify(payload: string): Promise<void>;
  /** Closes the connection and stops reconnecting. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link openChannel}. */
export interface ChannelOptions {
  /** `postgres://...` */
  url: string;
  /** The LISTEN/NOTIFY channel name ([a-z0-9_]+). */
  channel: string;
  /** Where NOTIFY is sent from: the server's pool, so that a lost LISTEN connection does not stop sending. */
  notifyWith: Queryable;
  /** Each message, from any connection (this one included). */
  onMessage(payload: string): void;
  /** The connection is back (LISTENing again): messages sent meanwhile were lost, read the rows. */
  onReconnect?(): void;
  /** The connection went down or came back: one call per change, for one log line each. */
  onStateChange?(up: boolean, error?: Error): void;
  /** Waits between reconnection attempts. Default: 250 ms doubling, at most 10 s, with jitter. */
  reconnect?: RetryPolicy;
}

const RECONNECT: RetryPolicy = { max: Infinity, baseMs: 250, maxMs: 10_000 };

/**
 * Opens the LISTEN connection; resolves once it listens (rejects when the first
 * attempt fails, so a server with no database at start says so). Afterwards a
 * lost connection is reopened with backoff, forever, until `close()`.
 *
 * @example
 * const channel = await openChannel({ url, channel: 'wpk_pay', notifyWith: db, onMessage: (p) => readRows(p) });
 * await channel.notify('{"kind":"events"}');
 */
export async function openChannel(options: ChannelOptions): Promise<SharedChannel> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.channel)) throw new Error('channel: must be 1 to 63 of [a-z0-9_]');
  // Imported on use, so a process on PGlite never loads pg.
  const { default: pgModule } = await import('pg');
  const policy = options.reconnect ?? RECONNECT;
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async (): Promise<void> => {
    const next = new pgModule.Client({ connectionString: options.url, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onMessage(message.payload);
    });
    // 'error' and 'end' both mean the connection is gone; either may come first, or alone.
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next));
    client = next;
    await next.connect();
    await next.query(`LISTEN ${options.channel}`);
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    connected = true;
    attempt = 0;
  };

  const lost = (which: pg.Client, error?: Error): void => {
    if (which !== client || closed) return;
    client = undefined;
    which.end().catch(() => {});
    if (connected) {
      connected = false;
      options.onStateChange?.(false, error);
    }
    schedule();
  };

  const schedule = (): void => {
    if (closed || timer !== undefined) return;
    attempt++;
    timer = setTimeout(
      () => {
        timer = undefined;
        connect().then(
          () => {
            if (!connected) return;
            options.onStateChange?.(true);
            options.onReconnect?.();
          },
          (error: unknown) => {
            const failed = client;
            client = undefined;
            failed?.end().catch(() => {});
            void error; // the state is already "down": one line was said when it went
            schedule();
          },
        );
      },
      backoffDelay(attempt, policy, Math.random),
    );
    timer.unref();
  };

  try {
    await connect();
  } catch (error) {
    closed = true;
    clearTimeout(timer);
    await client?.end().catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    get connected() {
      return connected;
    },
    async notify(payload) {
      await options.notifyWith.query('SELECT pg_notify($1, $2)', [options.channel, payload]);
    },
    close() {
      closing ??= (async () => {
        closed = true;
        clearTimeout(timer);
        connected = false;
        await client?.end().catch(() => {});
      })();
      return closing;
    },
  };
}
