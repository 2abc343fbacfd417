import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from '@hono/node-server';

/** Where {@link serveHttp} listens. */
export interface ServeHttpOptions {
  /** Interface to bind. Default `127.0.0.1`: tills run on the same host, and `/metrics` is unauthenticated. */
  host?: string;
  /** Port; default 0, an ephemeral port (read it from `url`). */
  port?: number;
}

/** A listening HTTP server. */
export interface HttpServerHandle {
  /** The Node server, e.g. to attach a WebSocket `upgrade` handler on the same port. */
  readonly server: Server;
  /** `http://<bound address>:<port>` */
  readonly url: string;
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

/**
 * Serves an app with @hono/node-server on a plain `http.Server` (not yet
 * listening until this resolves), so the caller can share the port with a
 * WebSocket bridge.
 *
 * @example
 * const { server, url, close } = await serveHttp(createHttpApp(service), { port: 8080 });
 * server.on('upgrade', bridge.handleUpgrade);
 */
export async function serveHttp(app: FetchApp, { host = '127.0.0.1', port = 0 }: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  // overrideGlobalObjects: false keeps the process's global Request/Response untouched;
  // a library should not swap them under the code that embeds it.
  const server = createAdaptorServer({ fetch: app.fetch.bind(app), overrideGlobalObjects: false }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  // Responses in progress, so close() can end their connections once each is answered.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });

  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${hostPart}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Without this, keep-alive sockets with nothing in flight hold close() open until they time out.
        server.closeIdleConnections();
        // A keep-alive socket whose response is still being prepared would otherwise idle until
        // its timeout after answering: say Connection: close, and drop it once it is idle.
        for (const response of inFlight) {
          if (!response.headersSent) response.setHeader('Connection', 'close');
          response.once('finish', () => setImmediate(() => server.closeIdleConnections()));
        }
      });
      return closing;
    },
  };
}
