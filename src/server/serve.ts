import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { pino, type Logger } from 'pino';
import { createHttpApp, serveHttp } from '../../adapters/http/index.js';
import { createVerifier } from '../../adapters/node/verifier.js';
import { createBridge } from '../../adapters/ws/index.js';
import { RedisStore } from '../stores/redis.js';
import { VERSION } from '../version.js';
import type { ServeConfig } from './config.js';
import { CashDeskService } from '../cashdesk/service.js';
import { TillRegistry } from '../cashdesk/tills.js';
import { openServerPayments, type ServerPayments } from './payments.js';

/** A running cash desk server. */
export interface RunningServer {
  /** `http://host:port` */
  readonly url: string;
  /** `ws://host:port/ws` */
  readonly wsUrl: string;
  readonly port: number;
  readonly service: CashDeskService;
  /** Stops accepting, lets in-flight calls finish (up to `drainSeconds`), then releases everything. */
  close(): Promise<void>;
}

/** What only an embedding (a test) sets: not in the configuration file. */
export interface StartServerOptions {
  /** Now, in ms, for the verifier and the payments. Default `Date.now`. */
  clock?: () => number;
}

/** Path of the WebSocket bridge on the shared port. */
export const BRIDGE_PATH = '/ws';

/**
 * Starts the HTTP adapter and the WebSocket bridge on one port.
 *
 * @example
 * const server = await startServer(resolveServeConfig(demoConfig, process.env));
 * console.log(server.url); // http://127.0.0.1:8080
 */
export async function startServer(config: ServeConfig, logger: Logger = pino({ level: 'silent' }), options: StartServerOptions = {}): Promise<RunningServer> {
  const { replay, ...verifierConfig } = config.verifier;
  const store = config.redisUrl === undefined ? undefined : new RedisStore({ url: config.redisUrl });
  const verifier = createVerifier({ ...verifierConfig, replay: replay ? store : false, ...(options.clock ? { clock: options.clock } : {}) });
  let service: CashDeskService | undefined;
  let pay: ServerPayments | undefined;
  const { pay: payConfig } = config;
  if (payConfig !== undefined) pay = await openServerPayments({ ...config, pay: payConfig }, () => service!, logger, options.clock);
  service = new CashDeskService({ verifier, tills: new TillRegistry(config.tills), version: VERSION, ...(pay ? { payments: pay.payments } : {}) });
  try {
    await pay?.payments.init();
  } catch (error) {
    await pay?.close();
    throw error;
  }
  const app = createHttpApp(service, { bodyLimitBytes: config.server.bodyLimitBytes, logger });
  const bridge = createBridge(service, {
    allowedOrigins: config.server.allowedOrigins, maxPayloadBytes: config.server.maxPayloadBytes, logger,
  });
  const http = await serveHttp(app, { host: config.server.host, port: config.server.port }).catch(async (error: unknown) => {
    await pay?.close();
    throw error;
  });
  http.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname === BRIDGE_PATH) {
      bridge.handleUpgrade(req, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  const { port } = new URL(http.url);
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  logger.info({
    url: http.url, backend: verifier.backend, tills: config.tills.length, redis: store !== undefined,
    pay: payConfig?.url, database: pay?.db.kind, webhook: payConfig?.webhookSecret !== undefined,
  }, 'cash desk server listening');

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    wsUrl: `ws://${host}:${port}${BRIDGE_PATH}`,
    port: Number(port),
    service,
    close() {
      closing ??= (async () => {
        logger.info('draining connections');
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, config.server.drainSeconds * 1000).unref());
        await Promise.race([Promise.all([bridge.close(), http.close()]), deadline]);
        await pay?.close();
        await verifier.close();
        await store?.close();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
