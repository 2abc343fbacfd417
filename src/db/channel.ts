import type pg from 'pg';

/**
 * One dedicated PostgreSQL connection shared by the instances of a server:
 * LISTEN/NOTIFY messages on one channel, and session-level advisory locks
 * that the server releases by itself when the connection (or the process) dies.
 */
export interface SharedChannel {
  /** Sends `payload` (at most ~7900 bytes) to every connection listening, this one included. */
  notify(payload: string): Promise<void>;
  /** Takes the advisory lock named `key` for this connection; false when another connection holds it. */
  tryLock(key: string): Promise<boolean>;
  /** Releases a lock taken with `tryLock`. */
  unlock(key: string): Promise<void>;
  /** Closes the connection: every lock is released. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link openChannel}. */
export interface ChannelOptions {
  /** `postgres://...` */
  url: string;
  /** The LISTEN/NOTIFY channel name ([a-z0-9_]+). */
  channel: string;
  /** Each message, from any connection (this one included). */
  onMessage(payload: string): void;
  /** The connection failed: its locks are gone. */
  onError?(error: Error): void;
}

/**
 * Opens the dedicated connection and LISTENs.
 *
 * @example
 * const channel = await openChannel({ url, channel: 'wpk_pay', onMessage: (p) => handle(JSON.parse(p)) });
 * if (await channel.tryLock('till-1/sale-42')) drive();
 */
export async function openChannel(options: ChannelOptions): Promise<SharedChannel> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.channel)) throw new Error('channel: must be 1 to 63 of [a-z0-9_]');
  // Imported on use, so a process on PGlite never loads pg.
  const { default: pgModule } = await import('pg');
  const client: pg.Client = new pgModule.Client({ connectionString: options.url });
  client.on('error', (error) => options.onError?.(error));
  client.on('notification', (message) => {
    if (message.channel === options.channel && message.payload !== undefined) options.onMessage(message.payload);
  });
  await client.connect();
  await client.query(`LISTEN ${options.channel}`);
  // Two-key form: the kit's locks live apart from any other user's single-key ones.
  const space = `hashtext('wpk:${options.channel}')`;
  let closed: Promise<void> | undefined;
  return {
    async notify(payload) {
      await client.query('SELECT pg_notify($1, $2)', [options.channel, payload]);
    },
    async tryLock(key) {
      const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${space}, hashtext($1)) AS ok`, [key]);
      return rows[0]!.ok;
    },
    async unlock(key) {
      await client.query(`SELECT pg_advisory_unlock(${space}, hashtext($1))`, [key]);
    },
    close() {
      closed ??= client.end().catch(() => {});
      return closed;
    },
  };
}
