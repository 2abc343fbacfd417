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
  const channel = new ListenChannel(pgModule.Client, options);
  await channel.open();
  return channel;
}

/** The LISTEN connection and its reconnection: one attempt at a time, with backoff, until closed. */
class ListenChannel implements SharedChannel {
  #client: pg.Client | undefined;
  #connected = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #attempt = 0;
  #closing: Promise<void> | undefined;
  readonly #policy: RetryPolicy;

  constructor(
    private readonly Client: typeof pg.Client,
    private readonly options: ChannelOptions,
  ) {
    this.#policy = options.reconnect ?? RECONNECT;
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** The first connection: rejects when it fails, and then tries no more. */
  async open(): Promise<void> {
    try {
      await this.#connect();
    } catch (error) {
      this.#closed = true;
      clearTimeout(this.#timer);
      await this.#client?.end().catch(() => {});
      throw error;
    }
  }

  async notify(payload: string): Promise<void> {
    await this.options.notifyWith.query('SELECT pg_notify($1, $2)', [this.options.channel, payload]);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      clearTimeout(this.#timer);
      this.#connected = false;
      await this.#client?.end().catch(() => {});
    })();
    return this.#closing;
  }

  async #connect(): Promise<void> {
    const { options } = this;
    const next = new this.Client({ connectionString: options.url, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onMessage(message.payload);
    });
    // 'error' and 'end' both mean the connection is gone; either may come first, or alone.
    next.on('error', (error) => this.#lost(next, error));
    next.on('end', () => this.#lost(next));
    this.#client = next;
    await next.connect();
    await next.query(`LISTEN ${options.channel}`);
    if (this.#closed) {
      await next.end().catch(() => {});
      return;
    }
    this.#connected = true;
    this.#attempt = 0;
  }

  #lost(which: pg.Client, error?: Error): void {
    if (which !== this.#client || this.#closed) return;
    this.#client = undefined;
    which.end().catch(() => {});
    if (this.#connected) {
      this.#connected = false;
      this.options.onStateChange?.(false, error);
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#attempt++;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#connect().then(
          () => {
            if (!this.#connected) return;
            this.options.onStateChange?.(true);
            this.options.onReconnect?.();
          },
          () => {
            const failed = this.#client;
            this.#client = undefined;
            failed?.end().catch(() => {});
            // The state is already "down": one line was said when it went.
            this.#schedule();
          },
        );
      },
      backoffDelay(this.#attempt, this.#policy, Math.random),
    );
    this.#timer.unref();
  }
}
