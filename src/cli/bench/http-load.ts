import { ConfigError, KitError } from '../../errors.js';
import type { BarcodeSource } from './barcodes.js';
import { type Answer, KeepAliveConnection } from './http-connection.js';
import { MeasureWindow, type TransportResult } from './window.js';

/** Options of {@link httpLoad}. */
export interface HttpLoadOptions {
  /** The server's base URL (`http://host:port`). */
  baseUrl: URL;
  tillKey: string;
  barcodes: BarcodeSource;
  /** Keep-alive connections, each with one request in flight. */
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Called with the window while the load runs, for a progress bar. */
  onStart?: (window: MeasureWindow) => void;
}

/**
 * Closed-loop load on `POST /v1/barcode/verify`: `connections` keep-alive
 * connections (bare sockets, no extra dependency), each sending its next
 * request when the last is answered. A wrong till key (401, 429) or a server
 * that does not answer ends the run at once with one clear error.
 */
export async function httpLoad(o: HttpLoadOptions): Promise<TransportResult> {
  const url = new URL('/v1/barcode/verify', o.baseUrl);
  const headers = { authorization: `Bearer ${o.tillKey}`, 'content-type': 'application/json' };
  const pool = Array.from({ length: o.connections }, () => new KeepAliveConnection(url, headers));
  const closeAll = () => {
    for (const c of pool) c.close();
  };

  let first: Answer;
  try {
    first = await pool[0]!.post(JSON.stringify({ fullBarcode: o.barcodes.next() }));
    refuse(first, o.baseUrl);
  } catch (error) {
    closeAll();
    if (error instanceof KitError) throw error;
    const e = error as NodeJS.ErrnoException;
    throw new KitError(
      'BACKEND_UNAVAILABLE',
      `no cash desk server answers at ${o.baseUrl.origin} (${e.code ?? e.message}); check --url`,
      { cause: error },
    );
  }

  const window = new MeasureWindow(o.warmupMs, o.durationMs);
  o.onStart?.(window);
  let fatal: unknown;
  const worker = async (connection: KeepAliveConnection) => {
    while (!window.over && fatal === undefined) {
      const sentAt = performance.now();
      try {
        const answer = await connection.post(JSON.stringify({ fullBarcode: o.barcodes.next() }));
        if (answer.status === 200) window.answered(sentAt, answer.body.includes('"totpCodeValid":true'));
        else {
          refuse(answer, o.baseUrl);
          window.failed(`HTTP ${answer.status} ${problemCode(answer.body)}`.trim());
        }
      } catch (error) {
        if (error instanceof KitError) fatal = error;
        else window.failed((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      }
    }
  };
  try {
    await Promise.all(pool.map(worker));
  } finally {
    closeAll();
  }
  if (fatal !== undefined) throw fatal;
  return window.result('http');
}

/** Throws for the answers that mean the run cannot measure anything: a key the server does not know. */
function refuse(answer: Answer, baseUrl: URL): void {
  if (answer.status === 401)
    throw new ConfigError([`--till-key: ${baseUrl.origin} answered 401 (no till has this key)`], 'arguments');
  if (answer.status === 429)
    throw new KitError(
      'TOO_MANY_REQUESTS',
      `${baseUrl.origin} answered 429: locked out after wrong till keys; wait, then check --till-key`,
    );
  if (answer.status === 404)
    throw new ConfigError(
      [`--url: ${baseUrl.origin} has no POST /v1/barcode/verify (404); is it a cash desk server?`],
      'arguments',
    );
}

function problemCode(body: string): string {
  return /"code"\s*:\s*"([A-Z_]+)"/.exec(body)?.[1] ?? '';
}
