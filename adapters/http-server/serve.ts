import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { getRequestListener, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Logger } from 'pino';
import { answerClientError } from './client-errors.js';
import { type ConnectionGate, gateConnections, survivingAcceptErrors } from './connection-gate.js';
import { nodeRoutesOf, withNodeRoutes } from './node-routes.js';
import { applyServerLimits, resolveServerLimits, serverOptionsFor, type ServerLimits } from './server-limits.js';
import { serveUpgradeAsHttp } from './upgrade-as-http.js';
import { spanRoutes } from './span-routes.js';
import { readTlsFiles, reloadTls, type TlsFiles } from './tls.js';
import { traceHttpRequests } from '../../src/telemetry/http-span.js';
import { TrustedProxies, trustSocket } from '../../src/net/client-address.js';

/** Where {@link serveHttp} listens. */
export interface ServeHttpOptions {
  /** Interface to bind. Default `127.0.0.1`: tills run on the same host, and `/metrics` is unauthenticated. */
  host?: string;
  /** Port; default 0, an ephemeral port (read it from `url`). */
  port?: number;
  /**
   * Timeouts and connection cap; defaults `DEFAULT_SERVER_LIMITS` (headers 10 s, request 30 s, keep-alive 5 s, 1024
   * connections).
   */
  limits?: Partial<ServerLimits>;
  /**
   * Where a failure to accept connections (out of file descriptors) and a TLS reload are told. Default: none.
   */
  logger?: Logger;
  /** Serve HTTPS (and WSS upgrades) on the port with these PEM files. Default: plain HTTP. */
  tls?: TlsFiles;
  /**
   * Proxies (addresses or CIDRs) whose `Forwarded` / `X-Forwarded-For` name the client (src/net/client-address.ts).
   * Default none: the peer is the client.
   */
  trustedProxies?: readonly string[];
}

/** A listening HTTP server. */
export interface HttpServerHandle {
  /** The Node server, e.g. to attach a WebSocket `upgrade` handler on the same port. */
  readonly server: Server;
  /** `http://<bound address>:<port>`, or `https://` with TLS. */
  readonly url: string;
  /** Connections open and refused at the cap or the open-file limit (answered 503). */
  readonly connections: ConnectionGate;
  /**
   * Serves a request that reached the server's `'upgrade'` listener as the ordinary HTTP/1.1 request it also is:
   * what that listener does with the upgrades it does not take (`Upgrade: h2c` from Java's HttpClient and
   * `curl --http2`, a WebSocket on another path), instead of closing them unanswered.
   */
  serveAsHttp(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Reads the TLS files again (SIGHUP): new connections get the new certificate, open ones keep theirs; bad files
   * leave the one in use, with a `warn`. False without TLS or when the files were bad.
   */
  reloadTls(): boolean;
  /**
   * Stops accepting connections, closes idle keep-alive ones, and resolves once
   * in-flight requests have been answered. Upgraded (WebSocket) sockets are the
   * upgrade handler's to close. Idempotent.
   */
  close(): Promise<void>;
}

/** Anything with a fetch handler, such as the app from `createHttpApp`. */
export interface FetchApp {
  fetch(request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response>;
}

/** How often {@link HttpServerHandle.close} drops connections that have become idle, while it waits. */
const IDLE_SWEEP_MS = 50;

type WriteHead = (
  this: ServerResponse,
  statusCode: number,
  reasonOrHeaders?: unknown,
  headers?: unknown,
) => ServerResponse;

/**
 * A `ServerResponse` whose head says `Connection: close` once `draining()`
 * is true, so a keep-alive socket whose request is in flight when the server
 * starts closing ends after its answer instead of idling until its timeout.
 * A response class rather than a listener per request, since the POST hot path
 * pays for each. Built the way Node subclasses its own function-style classes,
 * not with `class extends`: V8 constructs that noticeably slower, once per request.
 */
function drainingResponseClass(draining: () => boolean, hsts: boolean): typeof ServerResponse {
  const base = ServerResponse as unknown as (this: ServerResponse, request: IncomingMessage, options?: object) => void;
  function DrainingResponse(this: ServerResponse, request: IncomingMessage, options?: object): void {
    base.call(this, request, options);
  }
  Object.setPrototypeOf(DrainingResponse.prototype, ServerResponse.prototype);
  Object.setPrototypeOf(DrainingResponse, ServerResponse);
  const writeHead = ServerResponse.prototype.writeHead as WriteHead;
  // Every head goes through writeHead, end() without one included (Node calls it then).
  (DrainingResponse.prototype as { writeHead: WriteHead }).writeHead = function (statusCode, reasonOrHeaders, headers) {
    if (draining()) this.setHeader('Connection', 'close');
    // Defaults of every answer; a route's own Cache-Control (an event stream's, a page's) replaces no-store.
    this.setHeader('x-content-type-options', 'nosniff');
    this.setHeader('cache-control', 'no-store');
    if (hsts) this.setHeader('strict-transport-security', 'max-age=31536000');
    return writeHead.call(this, statusCode, reasonOrHeaders, headers);
  };
  return DrainingResponse as unknown as typeof ServerResponse;
}

/**
 * Serves an app with @hono/node-server on a plain `http.Server` (not yet
 * listening until this resolves), so the caller can share the port with a
 * WebSocket bridge. Every server of the kit listens through here, with the
 * timeouts and connection cap of `limits` (server-limits.ts). The raw POST
 * routes an app recorded with `attachNodeRoutes` (the cash desk's verify,
 * verify-batch and token) are answered before @hono/node-server (node-routes.ts).
 *
 * @example
 * const { server, url, close } = await serveHttp(createHttpApp(service), { port: 8080 });
 * server.on('upgrade', bridge.handleUpgrade);
 */
export async function serveHttp(app: FetchApp, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const { host = '127.0.0.1', port = 0, limits: given, logger, tls } = options;
  const limits = resolveServerLimits(given);
  const trusted = new TrustedProxies(options.trustedProxies);
  const material = tls === undefined ? undefined : readTlsFiles(tls);
  let draining = false;
  // overrideGlobalObjects: false keeps the process's global Request/Response untouched;
  // a library should not swap them under the code that embeds it.
  const viaHono = getRequestListener(app.fetch.bind(app), { overrideGlobalObjects: false });
  // The app's raw POST routes (the verify hot path) are answered before @hono/node-server and Hono's router.
  const nodeRoutes = nodeRoutesOf(app);
  const untraced = nodeRoutes === undefined ? viaHono : withNodeRoutes(nodeRoutes, viaHono);
  // A server span per request only when an OpenTelemetry SDK is registered; else the listener is untouched.
  const listener = traceHttpRequests(untraced, spanRoutes(app, nodeRoutes));
  const serverOptions = { ...serverOptionsFor(limits), ServerResponse: drainingResponseClass(() => draining, !!tls) };
  const server: Server =
    material === undefined
      ? createServer(serverOptions, listener)
      : (createHttpsServer({ ...serverOptions, ...material }, listener) as unknown as Server);
  applyServerLimits(server, limits);
  // Each connection remembers whom its server trusts, so clientAddressOf works for requests and upgrades alike.
  if ((options.trustedProxies?.length ?? 0) > 0) {
    server.on(material === undefined ? 'connection' : 'secureConnection', (socket: Socket) =>
      trustSocket(socket, trusted),
    );
  }
  // Past the cap, or near the open-file limit, a client is answered 503 with Retry-After, never reset.
  const connections = gateConnections(server, {
    maxConnections: limits.maxConnections,
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
    exempt: (address) => trusted.trusts(address),
    secure: material !== undefined,
  });
  // What Node refuses before any route sees the request gets the error envelope too (client-errors.ts).
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  survivingAcceptErrors(server, logger);
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const scheme = material === undefined ? 'http' : 'https';

  let closing: Promise<void> | undefined;
  return {
    server,
    url: `${scheme}://${hostPart}:${address.port}`,
    connections,
    serveAsHttp(req, socket, head) {
      serveUpgradeAsHttp(req, socket, head, (s) => connections.serveAgain(s as Socket));
    },
    reloadTls() {
      return tls !== undefined && reloadTls(server as unknown as HttpsServer, tls, logger);
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        draining = true;
        // An answer already under way when close() began went out without Connection: close;
        // its socket turns idle once the answer is sent, and is dropped at the next sweep.
        const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        server.close((error) => {
          clearInterval(sweep);
          if (error) reject(error);
          else resolve();
        });
        // Without this, keep-alive sockets with nothing in flight hold close() open until they time out.
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
