import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import type { Logger } from 'pino';
import type { NodeEnv } from './node-env.js';
import { methodNotAllowed, notFound, problemFor } from './problems.js';
import { sendProblem } from './reply.js';
import type { TurnCounter } from '../../src/cashdesk/metrics.js';
import { UNMATCHED_ROUTE } from './request-metrics.js';

/**
 * The app's `onError`, for failures in the Hono routes: the envelope from
 * `problemFor`, written by `sendProblem` like the POST routes' refusals, so
 * both paths answer alike. Logs carry the path, never the URL: `?key=` holds a till key.
 */
export function errorHandler(logger: Logger): ErrorHandler<NodeEnv> {
  return (error, c) => {
    const problem = problemFor(error, logger, { method: c.req.method, path: c.req.path });
    const { incoming, outgoing } = c.env;
    // An answer cannot follow one already under way.
    if (!outgoing.headersSent) sendProblem(incoming.headers, outgoing, problem);
    return RESPONSE_ALREADY_SENT;
  };
}

/**
 * The app's `notFound`: 405 with `Allow` when the path exists under another
 * method, else 404. Both in the envelope, via `sendProblem`, and counted here:
 * no counting middleware runs for a request no route matched.
 */
export function notFoundHandler(allowedMethods: ReadonlyMap<string, readonly string[]>, requests: TurnCounter): NotFoundHandler<NodeEnv> {
  return (c) => {
    const allowed = allowedMethods.get(c.req.path);
    const problem = allowed === undefined ? notFound() : methodNotAllowed(allowed);
    sendProblem(c.env.incoming.headers, c.env.outgoing, problem);
    requests.count(allowed === undefined ? UNMATCHED_ROUTE : c.req.path, problem.httpStatus);
    return RESPONSE_ALREADY_SENT;
  };
}
