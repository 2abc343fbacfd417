import type { IncomingMessage } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { silentLogger, withLogPolicy } from '../log/index.js';
import { createHttpApp } from '../../adapters/cashdesk-http/index.js';
import { DEFAULT_SERVER_LIMITS, serveWhileBuilding } from '../../adapters/http-server/index.js';
import type { NodeEnv } from '../../adapters/http-server/node-env.js';
import { wantsWebSocket } from '../../adapters/http-server/upgrade-as-http.js';
import { createVerifier } from '../../adapters/node/verifier.js';
import { createBridge } from '../../adapters/ws/index.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../adapters/ws/options.js';
import { HealthCheck } from '../../adapters/http-server/health.js';
import { RedisStore } from '../stores/redis.js';
import { RedisFailureCounts } from '../guard/redis-counts.js';
import { VERSION } from '../version.js';
import { withoutPassword } from '../net/masked-url.js';
import type { ServeConfig } from './config.js';
import { CashDeskService } from '../cashdesk/service.js';
import { TillVerifications } from '../cashdesk/verifications.js';
import { TillRegistry } from '../cashdesk/tills.js';
import { httpBonusHook } from '../cashdesk/bonus.js';
import { BackOfficeRegistry } from '../cashdesk/back-office/credentials.js';
import { BackOffice } from '../cashdesk/back-office/service.js';
import { auditedPayments } from '../cashdesk/back-office/audited-payments.js';
import { ServerMetrics } from '../cashdesk/metrics.js';
import { openServerPayments, type ServerPayments } from './payments.js';
import { openPaymentsThread } from './payments-thread.js';
import { DEFAULT_PAY_TOKEN } from '../contracts/pay/token.js';
import { loadTokenSigner } from '../pay/token-signer.js';

/** A running cash desk server. */
export interface RunningServer {
  /** `http://host:port` */
  readonly url: string;
  /** `ws://host:port/ws`, or `wss://` with TLS. */
  readonly wsUrl: string;
  readonly port: number;
  readonly service: CashDeskService;
  /** Reads the TLS files again (SIGHUP): see `HttpServerHandle.reloadTls`. False without TLS or with bad files. */
  reloadTls(): boolean;
  /** Stops accepting, lets in-flight calls finish (up to `drainSeconds`), then releases everything. */
  close(): Promise<void>;
}

/** What only an embedding (a test) sets: not in the configuration file. */
export interface StartServerOptions {
  /**
   * Now, in ms, for the verifier and the payments. Default `Date.now`. A
   * clock cannot cross threads: with one, the payments run on the main thread
   * whatever `pay.thread` says.
   */
  clock?: () => number;
  /**
   * Adds routes to the HTTP app before it listens: the demo system's till page and merchant console (which acts
   * through the back office in process, as the `console` actor). Browsers
   * on the server's own origin may then use the bridge (the till page), besides `server.allowedOrigins`.
   * Default none.
   */
  mount?: (app: OpenAPIHono<NodeEnv>, service: CashDeskService, backOffice: BackOffice) => void;
  /** Awaited first in `close()`: what `mount` added that must end before the drain (event streams). */
  beforeClose?: () => void | Promise<void>;
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
export async function startServer(
  config: ServeConfig,
  given: Logger = silentLogger(),
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const logger = withLogPolicy(given);
  const { server: s } = config;
  const opened: Opened = {};
  // Late, never early: Redis and the payments' database can fail while it builds, and the verify path's raw
  // routes (node-routes.ts) are taken from the built app when the listener is made.
  const { http, built } = await serveWhileBuilding(
    {
      host: s.host,
      port: s.port,
      limits: serverLimits(s),
      logger,
      early: false,
      trustedProxies: config.trustedProxies,
      ...(config.tls === undefined ? {} : { tls: config.tls }),
    },
    () => buildCashDesk(config, logger, options, opened),
    (desk) => desk.app,
    async () => {
      await opened.pay?.close();
      await opened.failureCounts?.close();
    },
  );
  const { service, verifier, bridge, store, pay, failureCounts } = built;
  routeUpgrades(http, bridge);
  const { port, protocol } = new URL(http.url);
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  if (options.mount !== undefined) {
    bridge.allowOrigin(`${protocol}//${host}:${port}`);
    if (['127.0.0.1', '::1', 'localhost'].includes(config.server.host)) {
      bridge.allowOrigin(`${protocol}//localhost:${port}`);
    }
  }
  const payConfig = config.pay;
  logger.info(
    {
      url: http.url,
      backend: verifier.backend,
      tills: config.tills.length,
      redis: store !== undefined,
      pay: payConfig === undefined ? undefined : withoutPassword(payConfig.url),
      database: pay?.databaseKind,
      payThread: pay === undefined ? undefined : payConfig?.thread,
      webhook: payConfig?.webhookSecret !== undefined,
    },
    'cash desk server listening',
  );

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    wsUrl: `${protocol === 'https:' ? 'wss' : 'ws'}://${host}:${port}${BRIDGE_PATH}`,
    port: Number(port),
    service,
    reloadTls: () => http.reloadTls(),
    close() {
      closing ??= (async () => {
        await options.beforeClose?.();
        logger.info('draining connections');
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, config.server.drainSeconds * 1000).unref());
        await Promise.race([Promise.all([bridge.close(), http.close()]), deadline]);
        await pay?.close();
        await verifier.close();
        await failureCounts?.close();
        await store?.close();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}

/** The HTTP server's limits: the configured ones, the callee's defaults for the rest. */
function serverLimits(s: ServeConfig['server']) {
  return defined({
    headersTimeoutMs: s.headersTimeoutMs,
    requestTimeoutMs: s.requestTimeoutMs,
    keepAliveTimeoutMs: s.keepAliveTimeoutMs,
    // Upgraded sockets stay counted by the HTTP server: by default a full bridge still leaves HTTP its own 1024.
    maxConnections:
      s.maxConnections ?? DEFAULT_SERVER_LIMITS.maxConnections + (s.maxWsConnections ?? DEFAULT_MAX_CONNECTIONS),
    maxConnectionsPerAddress: s.maxConnectionsPerAddress,
  });
}

/** Upgrades to the bridge's path go to the bridge; any other is served as HTTP/1.1. */
function routeUpgrades(
  http: Awaited<ReturnType<typeof serveWhileBuilding>>['http'],
  bridge: ReturnType<typeof createBridge>,
): void {
  http.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (wantsWebSocket(req) && new URL(req.url ?? '/', 'http://localhost').pathname === BRIDGE_PATH) {
      bridge.handleUpgrade(req, socket, head);
      return;
    }
    // Any other upgrade (h2c from Java's HttpClient and curl --http2) is ignored: the request is served as HTTP/1.1.
    http.serveAsHttp(req, socket, head);
  });
}

/** What a cash desk's build opened so far: released when the start fails. */
interface Opened {
  pay?: ServerPayments;
  failureCounts?: RedisFailureCounts;
}

/** A built cash desk: its app and what it runs on. */
interface CashDesk {
  app: OpenAPIHono<NodeEnv>;
  service: CashDeskService;
  verifier: ReturnType<typeof createVerifier>;
  bridge: ReturnType<typeof createBridge>;
  store: RedisStore | undefined;
  pay: ServerPayments | undefined;
  failureCounts: RedisFailureCounts | undefined;
}

/** Builds the verifier, the payments, the service, the HTTP app (with `options.mount`) and the bridge. */
async function buildCashDesk(
  config: ServeConfig,
  logger: Logger,
  options: StartServerOptions,
  opened: Opened,
): Promise<CashDesk> {
  const { replay, ...verifierConfig } = config.verifier;
  const payToken = config.pay?.token ?? DEFAULT_PAY_TOKEN;
  // A module is loaded once, before anything listens: a module that does not load stops the start.
  const signer =
    'module' in payToken ? await loadTokenSigner(payToken, config.verifier.key, { field: 'pay.token' }) : undefined;
  const store = config.redisUrl === undefined ? undefined : new RedisStore({ url: config.redisUrl });
  const metrics = new ServerMetrics();
  const bonusAvailable = config.bonus === undefined ? undefined : httpBonusHook(config.bonus, metrics.bonusChecks);
  const verifier = createVerifier({
    ...verifierConfig,
    ...('scheme' in payToken ? { token: { scheme: payToken.scheme } } : {}),
    replay: replay ? store : false,
    ...(bonusAvailable ? { bonusAvailable } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // Verifications first, then the payments (they verify scans and sign bodies through them), then the service.
  const verifications = new TillVerifications({ verifier, metrics, ...(signer ? { signer } : {}) });
  opened.pay = await openPayments(config, verifications, metrics, logger, options);
  const { pay } = opened;
  // Every money-moving intent, from a till or the back office, leaves an audit record (a refund's, with its effect).
  const payments = pay && auditedPayments(pay.payments, (err) => logger.warn({ err }, 'audit record not written'));
  // With Redis, the wrong-key budget per address holds for every instance together, not for each.
  const failureCounts = store === undefined ? undefined : new RedisFailureCounts({ client: store.client, logger });
  opened.failureCounts = failureCounts;
  const service = new CashDeskService({
    verifications,
    tills: new TillRegistry(config.tills),
    version: VERSION,
    metrics,
    logger,
    ...(payments ? { payments } : {}),
    ...(failureCounts === undefined ? {} : { bruteForce: { shared: failureCounts } }),
  });
  await pay?.payments.init();
  const { server: s } = config;
  // Redis and the payments' database can fail under the cash desk; the in-memory store is part of the process.
  const health = new HealthCheck({
    ...(store === undefined ? {} : { redis: () => store.ping() }),
    ...(pay === undefined ? {} : { database: () => pay.ping() }),
  });
  const backOffice = new BackOffice({
    keys: new BackOfficeRegistry(config.backOffice),
    tills: config.tills,
    ...(payments ? { payments } : {}),
  });
  const app = createHttpApp(service, {
    bodyLimitBytes: s.bodyLimitBytes,
    logger,
    health,
    backOffice,
    ...defined({ eventHeartbeatMs: s.eventHeartbeatMs }),
  });
  options.mount?.(app, service, backOffice);
  const bridge = createBridge(service, {
    allowedOrigins: s.allowedOrigins,
    maxPayloadBytes: s.maxPayloadBytes,
    logger,
    ...defined({
      maxConnections: s.maxWsConnections,
      maxConnectionsPerTill: s.maxWsConnectionsPerTill,
      maxBufferedBytesTotal: s.maxWsBufferedBytesTotal,
    }),
  });
  return { app, service, verifier, bridge, store, pay, failureCounts };
}

/** The payments (in their thread, or in this one under an injected clock), when `pay` is configured. */
async function openPayments(
  config: ServeConfig,
  verifications: TillVerifications,
  metrics: ServerMetrics,
  logger: Logger,
  options: StartServerOptions,
): Promise<ServerPayments | undefined> {
  const { pay: payConfig } = config;
  if (payConfig === undefined) return undefined;
  const stores = config.tills.map((t): [string, string | null] => [t.id, t.store ?? null]);
  const paymentsConfig = {
    database: config.database,
    pay: payConfig,
    stores,
    auditRetentionDays: config.audit.retentionDays,
  };
  const count = (kind: 'status' | 'code', operation: string) => metrics.payWordsNotUnderstood.inc({ operation, kind });
  const found = (counts: Readonly<Record<string, number>>) => metrics.setDiscrepancies(counts);
  return payConfig.thread === 'worker' && options.clock === undefined
    ? openPaymentsThread(paymentsConfig, verifications, logger, count, found)
    : openServerPayments(paymentsConfig, verifications, logger, options.clock, count, found);
}

/** `fields` without the ones not set, so the callee's defaults apply. */
function defined<T extends Record<string, unknown>>(fields: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}
