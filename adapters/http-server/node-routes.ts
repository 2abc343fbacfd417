import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** A route answered from Node's request and response directly: no web Request, no Hono context. */
export type NodeHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/** POST routes by exact path, answered before Hono's router (see {@link withNodeRoutes}). */
export type NodeRoutes = ReadonlyMap<string, NodeHandler>;

const TABLES = new WeakMap<object, NodeRoutes>();

/**
 * Records the POST routes of `app` that `serveHttp` may answer before the app's
 * router. The same handlers are mounted in the app itself, so a path the table
 * misses (percent-encoded, absolute-form) still reaches them through Hono.
 */
export function attachNodeRoutes(app: object, routes: NodeRoutes): void {
  TABLES.set(app, routes);
}

/** The table {@link attachNodeRoutes} recorded for `app`, if any. */
export function nodeRoutesOf(app: object): NodeRoutes | undefined {
  return TABLES.get(app);
}

/**
 * A request listener answering POSTs to the paths of `routes` itself and
 * handing everything else to `fallback` (@hono/node-server's listener).
 *
 * Why: for the verify route @hono/node-server's listener (a Request object,
 * three listeners on the request and response) and Hono's router and context
 * cost about a fifth of the server's CPU per request (bench/RESULTS.md,
 * 2026-11-24), and the raw routes use none of it. Only the exact path (the
 * query string aside) is taken here; anything else takes the ordinary way.
 */
export function withNodeRoutes(routes: NodeRoutes, fallback: RequestListener): RequestListener {
  return (incoming, outgoing) => {
    if (incoming.method === 'POST') {
      const url = incoming.url ?? '';
      const query = url.indexOf('?');
      const handler = routes.get(query === -1 ? url : url.slice(0, query));
      if (handler !== undefined) {
        handler(incoming, outgoing);
        return;
      }
    }
    fallback(incoming, outgoing);
  };
}
