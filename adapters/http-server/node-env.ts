import type { HttpBindings } from '@hono/node-server';

/**
 * The Hono environment of the app: @hono/node-server's bindings, so handlers
 * reach the Node request and response (`c.env.incoming`, `c.env.outgoing`).
 * The POST routes and every refusal are read and written through them
 * directly, so the app must be served by @hono/node-server (`serveHttp`).
 */
export interface NodeEnv {
  Bindings: HttpBindings;
}
