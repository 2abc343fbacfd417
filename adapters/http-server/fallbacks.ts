import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import type { Logger } from 'pino';
import { CLIENT_CLOSED_REQUEST, problemFor } from './failures.js';
import type { NodeEnv } from './node-env.js';
import { methodNotAllowed, notFound } from './refusals.js';
import { writeProblem } from './reply.js';
import { type RequestCounter, UNMATCHED_ROUTE } from './request-metrics.js';
import type { PathRoutes } from './route-table.js';

/**
 * An app's `onError` that answers on the Node response (the cash desk's), for
 * failures in its Hono routes: the envelope from `problemFor`, written by
 * `writeProblem` like the raw POST routes' refusals, so both paths answer alike. Logs carry the path, never the URL:
 * `?key=` holds a till key.
 */
export function errorHandler(logger: Logger): ErrorHandler<NodeEnv> {
  return (error, c) => {
    const { incoming, outgoing } = c.env;
    const problem = problemFor(error, logger, { method: c.req.method, path: c.req.path, incoming });
    // An answer cannot follow one already under way, and a client gone mid-body (499) is not there to read one.
    const unread = outgoing.headersSent || problem.httpStatus === CLIENT_CLOSED_REQUEST;
    if (!unread) writeProblem(incoming.headers, outgoing, problem);
    return RESPONSE_ALREADY_SENT;
  };
}

/**
 * An app's `notFound` that answers on the Node response (the cash desk's):
 * 405 with `Allow` when the path exists under another method (`routes`: the app's routes, see `routeTable`), else
 * 404. Both in
 * the envelope, via `writeProblem`, and counted here under the route's name
 * (`/v1/payments/{paymentId}`, never the path itself): no counting middleware
 * runs for a request no route matched.
 */
export function notFoundHandler(
  routes: (path: string) => PathRoutes | undefined,
  requests: RequestCounter,
): NotFoundHandler<NodeEnv> {
  return (c) => {
    const found = routes(c.req.path);
    // Served under this very method, yet no route answered (a strict-path mismatch): nothing to allow.
    const allowed =
      found === undefined || found.methods.includes(c.req.method.toUpperCase()) ? undefined : found.methods;
    const problem = allowed === undefined ? notFound() : methodNotAllowed(allowed);
    writeProblem(c.env.incoming.headers, c.env.outgoing, problem);
    requests.count(allowed === undefined ? UNMATCHED_ROUTE : found!.route, problem.httpStatus);
    return RESPONSE_ALREADY_SENT;
  };
}
