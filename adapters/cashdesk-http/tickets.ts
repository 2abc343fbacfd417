import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { TicketResponse } from '../../src/contracts/cashdesk.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import { clientAddressOf } from '../../src/net/client-address.js';
import { LockoutError } from '../../src/errors.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { HttpProblem } from '../http-server/problem.js';
import { unauthorized } from '../http-server/refusals.js';
import type { RequestCounter } from '../http-server/request-metrics.js';
import { SECURITY_SCHEMES } from './routes.js';
import type { TillAuthenticator } from './till-keys.js';

/** Where a till gets a one-use ticket for the bridge's upgrade. */
export const TICKETS_PATH = '/v1/tickets';

const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelope } },
});

/** `POST /v1/tickets`, for the OpenAPI document. */
export const ticketRoute = createRoute({
  operationId: 'issueTicket',
  method: 'post',
  path: TICKETS_PATH,
  summary: 'Get a one-use ticket for the WebSocket bridge',
  description:
    'For tills that cannot set headers on a WebSocket (a browser page): the ticket goes on the upgrade as ' +
    '`/ws?ticket=<ticket>` instead of the till key, so the key never appears in a URL. Valid once, for 30 s, for the ' +
    'till whose key asked, on the instance that issued it. A wrong, expired or spent ticket is refused 401 and ' +
    'counted like a wrong key. Any body is ignored.',
  security: [{ [SECURITY_SCHEMES.bearer]: [] }],
  responses: {
    200: { description: 'The ticket.', content: { 'application/json': { schema: TicketResponse } } },
    401: errorAnswer('No till key, or a key of no till (`UNAUTHORIZED`). Sent with `WWW-Authenticate: Bearer`.'),
    429: errorAnswer(
      'Too many wrong till keys or tickets from this address (`TOO_MANY_REQUESTS`); `Retry-After` gives the seconds.',
    ),
  },
});

/** What the ticket route shares with the rest of the app. */
export interface TicketRouteDeps {
  service: CashDeskService;
  authenticate: TillAuthenticator;
  requests: RequestCounter;
  /** Where each issue is logged (the till and status; never the ticket). */
  logger: Logger;
}

/** Mounts `POST /v1/tickets`: a till key (`Authorization: Bearer`) in, a ticket of `service.tickets` out. */
export function mountTicketRoute(app: OpenAPIHono<NodeEnv>, deps: TicketRouteDeps): void {
  app.post(TICKETS_PATH, (c) => {
    const count = (status: number) => deps.requests.count(TICKETS_PATH, status);
    try {
      const { incoming } = c.env;
      const till = deps.authenticate(c.req.header('authorization'), incoming.url, clientAddressOf(incoming));
      if (till === undefined) throw unauthorized();
      const { ticket, expiresAt } = deps.service.tickets.issue(till);
      count(200);
      deps.logger.info({ till: till.id, route: TICKETS_PATH, status: 200 }, 'ticket issued');
      return c.json({ ticket, expiresAt: new Date(expiresAt).toISOString() }, 200);
    } catch (error) {
      count(error instanceof HttpProblem ? error.httpStatus : error instanceof LockoutError ? 429 : 500);
      throw error;
    }
  });
}
