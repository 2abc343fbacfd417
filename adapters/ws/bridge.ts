import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import type { Till } from '../../src/cashdesk/tills.js';
import { BridgeConnection } from './connection.js';
import { DatabaseNotice } from './database-notice.js';
import { rememberUpgradeTrace } from '../../src/telemetry/rpc-span.js';
import { tracingActive } from '../../src/telemetry/tracing.js';
import { Dispatcher } from './dispatch.js';
import { Heartbeat } from './heartbeat.js';
import { SendBudget } from './send-budget.js';
import { followPayments } from './pay-notifications.js';
import { type BridgeOptions, resolveBridgeOptions, type ResolvedBridgeOptions } from './options.js';
import {
  checkUpgrade,
  normaliseOrigin,
  refuseUpgrade,
  SUBPROTOCOL,
  UPGRADE_REFUSALS,
  type UpgradeRefusal,
} from './upgrade.js';
import { clientAddressOf } from '../../src/net/client-address.js';

/** The WebSocket bridge for legacy tills (adapters/ws/README.md). */
export interface Bridge {
  /**
   * Takes an HTTP upgrade request (route `/ws` upgrades here from the server's
   * `'upgrade'` event): refuses it with a plain HTTP response (503 closing or
   * over `maxConnections`, 403, 400, 401, 429 locked out or over
   * `maxConnectionsPerTill`: see `UPGRADE_REFUSALS` and `checkUpgrade`) or completes the WebSocket handshake.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Stops accepting connections; closes each one with 1001 once the calls it
   * has in flight are answered, terminates those still open after the grace
   * (`closeGraceMs`), and stops the heartbeat. Frames arriving once closing
   * has begun are not answered: the till gets the close frame and reconnects
   * elsewhere. Idempotent.
   */
  close(): Promise<void>;
  /**
   * Accepts browsers from one more origin (`scheme://host[:port]`), besides `allowedOrigins`: a server that
   * learns its own origin only once it listens (port 0) and serves a till page there.
   */
  allowOrigin(origin: string): void;
  /** Open connections. */
  readonly clients: number;
}

/**
 * Creates the bridge: JSON-RPC 2.0 over WebSocket, subprotocol
 * `wallet-pos.v1`, till auth at upgrade. Options are validated here, once
 * (a bad one throws `ConfigError`).
 *
 * @example
 * const bridge = createBridge(service, { allowedOrigins: ['https://pos.example.com'], logger });
 * server.on('upgrade', (req, socket, head) => {
 *   if (new URL(req.url ?? '/', 'http://x').pathname === '/ws') bridge.handleUpgrade(req, socket, head);
 *   else socket.destroy();
 * });
 */
export function createBridge(service: CashDeskService, options?: BridgeOptions): Bridge {
  return new WsBridge(service, resolveBridgeOptions(options));
}

class WsBridge implements Bridge {
  readonly #service: CashDeskService;
  readonly #options: ResolvedBridgeOptions;
  readonly #log: Logger;
  readonly #allowedOrigins: Set<string>;
  readonly #dispatcher: Dispatcher;
  /** Spans for calls (an OpenTelemetry SDK was registered when the bridge was made). */
  readonly #tracing = tracingActive();
  readonly #database: DatabaseNotice;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<BridgeConnection>();
  /** Open connections per till id, for `maxConnectionsPerTill`. */
  readonly #perTill = new Map<string, number>();
  readonly #budget: SendBudget;
  readonly #heartbeat: Heartbeat;
  #closing: Promise<void> | undefined;
  #nextId = 1;

  allowOrigin(origin: string): void {
    this.#allowedOrigins.add(normaliseOrigin(origin));
  }

  constructor(service: CashDeskService, options: ResolvedBridgeOptions) {
    this.#service = service;
    this.#options = options;
    this.#log = options.logger;
    this.#allowedOrigins = new Set(options.allowedOrigins);
    this.#database = new DatabaseNotice(options.logger);
    this.#dispatcher = new Dispatcher(service, options.maxBatch, this.#database);
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayloadBytes,
      // Deflate costs memory per connection and opens compression-bomb and CRIME-style attacks;
      // the answers are small JSON anyway.
      perMessageDeflate: false,
      clientTracking: true,
      // Upgrades without the subprotocol are refused before reaching ws; this only names it in the 101.
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
    });
    this.#budget = new SendBudget(options.maxBufferedBytesTotal, () => this.#connections);
    this.#heartbeat = new Heartbeat(
      options.pingIntervalMs,
      () => this.#connections,
      (error) => this.#log.error({ err: error }, 'bridge heartbeat failed'),
    );
  }

  get clients(): number {
    return this.#connections.size;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A key or ticket may be in the query string: log the path only, never `req.url`.
    const remote = { remoteAddress: clientAddressOf(req), path: (req.url ?? '/').split('?')[0] };
    const checked =
      this.#closing !== undefined
        ? { refusal: UPGRADE_REFUSALS.closing }
        : this.#connections.size >= this.#options.maxConnections
          ? { refusal: UPGRADE_REFUSALS.tooManyConnections }
          : this.#underTillCap(
              checkUpgrade(req, {
                allowedOrigins: this.#allowedOrigins,
                authenticate: (key, address) => this.#service.authenticate(key, 'ws', address),
                redeemTicket: (ticket, address) => this.#service.redeemTicket(ticket, address),
              }),
            );
    if ('refusal' in checked) {
      this.#log.info(
        { ...remote, status: checked.refusal.status, reason: checked.refusal.message },
        'bridge upgrade refused',
      );
      refuseUpgrade(socket, checked.refusal);
      return;
    }
    if (this.#tracing) rememberUpgradeTrace(socket, req.headers);
    try {
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, socket, checked.till, remote));
    } catch (error) {
      // Only a programming error gets here (a socket upgraded twice); it must not take the server down.
      this.#log.error({ err: error, ...remote }, 'bridge upgrade failed');
      socket.destroy();
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#heartbeat.stop();
      const started = Date.now();
      await Promise.all([...this.#connections].map((c) => c.shutdown(this.#options.closeGraceMs)));
      await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
      this.#log.info({ ms: Date.now() - started }, 'bridge closed');
    })();
    return this.#closing;
  }

  /** An authenticated upgrade, refused when its till already holds `maxConnectionsPerTill`. */
  #underTillCap<T extends { till: Till } | { refusal: UpgradeRefusal }>(checked: T): T | { refusal: UpgradeRefusal } {
    if ('till' in checked && (this.#perTill.get(checked.till.id) ?? 0) >= this.#options.maxConnectionsPerTill) {
      return { refusal: UPGRADE_REFUSALS.tooManyForTill };
    }
    return checked;
  }

  #accept(ws: WebSocket, socket: Duplex, till: Till, remote: { remoteAddress: string | undefined }): void {
    const log = this.#log.child({ till: till.id, conn: this.#nextId++ });
    const connection = new BridgeConnection(
      ws,
      socket,
      till.id,
      this.#dispatcher,
      this.#options,
      log,
      this.#budget,
      till.orderedAnswers === true,
      remote.remoteAddress,
    );
    this.#connections.add(connection);
    this.#perTill.set(till.id, (this.#perTill.get(till.id) ?? 0) + 1);
    this.#service.metrics.bridgeConnections.inc();
    log.info({ remoteAddress: remote.remoteAddress }, 'till connected');
    const notify = (text: string, paymentId: string) => connection.notify(text, paymentId);
    followPayments(this.#service, till.id, notify, connection.closed, log, { database: this.#database });
    void connection.closed.then(() => {
      this.#connections.delete(connection);
      const left = (this.#perTill.get(till.id) ?? 1) - 1;
      if (left > 0) this.#perTill.set(till.id, left);
      else this.#perTill.delete(till.id);
      this.#service.metrics.bridgeConnections.dec();
    });
  }
}
