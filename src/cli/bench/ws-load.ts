import WebSocket from 'ws';
import { ConfigError, KitError } from '../../errors.js';
import type { BarcodeSource } from './barcodes.js';
import { MeasureWindow, type TransportResult } from './window.js';

/** Options of {@link bridgeLoad}. */
export interface BridgeLoadOptions {
  /** The server's base URL (`http://host:port`); the bridge is at `/ws` on the same port. */
  baseUrl: URL;
  tillKey: string;
  barcodes: BarcodeSource;
  /** `barcode.verify` calls outstanding on the one connection, as a busy till keeps them. */
  inFlight: number;
  warmupMs: number;
  durationMs: number;
  onStart?: (window: MeasureWindow) => void;
}

/** The bridge's URL for a server's base URL: same host and port, ws(s), path /ws. */
export function bridgeUrl(baseUrl: URL): string {
  const url = new URL('/ws', baseUrl);
  url.protocol = baseUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * One WebSocket connection (subprotocol wallet-pos.v1, the till key as a
 * Bearer header) keeping `inFlight` JSON-RPC `barcode.verify` calls
 * outstanding: each answer sends the next call.
 */
export async function bridgeLoad(o: BridgeLoadOptions): Promise<TransportResult> {
  const url = bridgeUrl(o.baseUrl);
  const socket = await openBridge(url, o.tillKey);
  const window = new MeasureWindow(o.warmupMs, o.durationMs);
  o.onStart?.(window);
  const sentAt = new Map<number, number>();
  let nextId = 1;
  const send = () => {
    const id = nextId++;
    sentAt.set(id, performance.now());
    const params = JSON.stringify({ fullBarcode: o.barcodes.next() });
    socket.send(`{"jsonrpc":"2.0","id":${id},"method":"barcode.verify","params":${params}}`);
  };
  return new Promise<TransportResult>((resolve, reject) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      socket.terminate();
      resolve(window.result('bridge'));
    };
    socket.on('message', (data) => {
      let reply: { id?: unknown; result?: { totpCodeValid?: unknown }; error?: { code?: unknown; message?: unknown } };
      try {
        reply = JSON.parse(String(data)) as typeof reply;
      } catch {
        window.failed('a reply that is not JSON');
        return;
      }
      const started = typeof reply.id === 'number' ? sentAt.get(reply.id) : undefined;
      if (started === undefined) return; // a notification, or an answer to nothing we sent
      sentAt.delete(reply.id as number);
      if (reply.error !== undefined)
        window.failed(`JSON-RPC error ${String(reply.error.code)} ${String(reply.error.message ?? '')}`.trim());
      else window.answered(started, reply.result?.totpCodeValid === true);
      if (!window.over) send();
      else if (sentAt.size === 0) finish();
    });
    socket.on('close', (code) => {
      if (!window.over && !done) {
        done = true;
        clearInterval(timer);
        reject(new KitError('BACKEND_UNAVAILABLE', `${url} closed the connection during the run (code ${code})`));
      } else finish();
    });
    socket.on('error', () => {}); // a close follows
    // Calls still unanswered when the window closes are not waited for long: a stalled server must not hang the run.
    const timer = setInterval(() => {
      if (window.over) {
        clearInterval(timer);
        setTimeout(finish, 1000).unref();
      }
    }, 50);
    for (let i = 0; i < o.inFlight; i++) send();
  });
}

/** The open connection as a till makes it, or why none: a refused till key (ConfigError), no bridge there. */
async function openBridge(url: string, tillKey: string): Promise<WebSocket> {
  const socket = new WebSocket(url, 'wallet-pos.v1', {
    headers: { authorization: `Bearer ${tillKey}` },
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      socket.terminate();
      reject(
        status === 401
          ? new ConfigError([`--till-key: ${url} answered 401 (no till has this key)`], 'arguments')
          : new KitError(
              'BACKEND_UNAVAILABLE',
              `${url} refused the WebSocket upgrade (HTTP ${status}); is it a cash desk server's bridge?`,
            ),
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new KitError(
          'BACKEND_UNAVAILABLE',
          `no cash desk bridge answers at ${url} (${error.code ?? error.message}); check --url`,
          { cause: error },
        ),
      );
    });
  });
  return socket;
}
