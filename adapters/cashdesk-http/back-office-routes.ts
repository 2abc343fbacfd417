import { clientAddressOf } from '../../src/net/client-address.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { Logger } from 'pino';
import type { BackOffice } from '../../src/cashdesk/back-office/service.js';
import { type BackOfficeCaller, bearerKey } from '../../src/cashdesk/back-office/credentials.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { AuditQuery, BackOfficePaymentParams, BackOfficePaymentsQuery } from '../../src/contracts/back-office.js';
import { DayCloseQuery, ReconciliationQuery } from '../../src/contracts/back-office-reports.js';
import { RefundBody } from '../../src/contracts/cashdesk-payments.js';
import { requestBodyLimit } from '../http-server/body-limit.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { invalidBody, payloadTooLarge, unauthorized } from '../http-server/refusals.js';
import type { RequestCounter } from '../http-server/request-metrics.js';
import { readJsonBody } from './json-body.js';
import { countedAnswer } from './counted-answer.js';

/** Where the back-office routes live. */
export const BACK_OFFICE_PATH = '/v1/back-office';

/** The audit log's route. */
export const AUDIT_PATH = '/v1/audit';

/** The reports' routes. */
export const RECONCILIATION_ROUTE = `${BACK_OFFICE_PATH}/reconciliation`;
export const DAY_CLOSE_ROUTE = `${BACK_OFFICE_PATH}/reports/day-close`;

/** The back-office refund's route, as documented and counted. */
export const BACK_OFFICE_REFUND_ROUTE = `${BACK_OFFICE_PATH}/tills/{tillId}/payments/{paymentId}/refund`;

/** What the back-office routes share with the rest of the app. */
export interface BackOfficeRoutesDeps {
  service: CashDeskService;
  backOffice: BackOffice;
  requests: RequestCounter;
  bodyLimitBytes: number;
  logger: Logger;
}

/** A route's handler, given the caller its key authenticated. */
export type CallerRoute = (c: Context<NodeEnv>, caller: BackOfficeCaller) => Promise<Response>;

/**
 * Wraps a back-office route: the request id current and in the answer, the key of `Authorization: Bearer` only
 * (never `?key=`: a URL ends up in logs) checked before anything else, wrong keys counted against the caller's
 * address as till keys are, the answer counted by route pattern and logged in one line.
 */
export function backOfficeRoute(deps: BackOfficeRoutesDeps, route: string, handler: CallerRoute): Handler<NodeEnv> {
  return (c) => countedAnswer(c, deps, route, 'back-office request', () => handler(c, authenticate(deps, c)));
}

function authenticate(deps: BackOfficeRoutesDeps, c: Context<NodeEnv>): BackOfficeCaller {
  const address = clientAddressOf(c.env.incoming);
  deps.service.admit(address);
  const caller = deps.backOffice.authenticate(bearerKey(c.req.header('authorization')));
  if (caller === undefined) {
    deps.service.wrongKey('http', address);
    throw unauthorized();
  }
  return caller;
}

/**
 * Mounts `GET /v1/audit` (`audit:read`), `GET /v1/back-office/payments` (`payments:read`),
 * `GET /v1/back-office/reconciliation` and `GET /v1/back-office/reports/day-close` (`reports:read`) and
 * `POST /v1/back-office/tills/{tillId}/payments/{paymentId}/refund` (`payments:refund`).
 */
export function mountBackOfficePaymentRoutes(app: OpenAPIHono<NodeEnv>, deps: BackOfficeRoutesDeps): void {
  const limit = requestBodyLimit(deps.bodyLimitBytes, () => {
    throw payloadTooLarge(deps.bodyLimitBytes);
  });
  // The reads: a path, the scope it needs, its query's schema and the back office's answer.
  const reads = [
    { path: AUDIT_PATH, scope: 'audit:read', query: AuditQuery, read: deps.backOffice.audit },
    {
      path: `${BACK_OFFICE_PATH}/payments`,
      scope: 'payments:read',
      query: BackOfficePaymentsQuery,
      read: deps.backOffice.payments,
    },
    {
      path: RECONCILIATION_ROUTE,
      scope: 'reports:read',
      query: ReconciliationQuery,
      read: deps.backOffice.reconciliation,
    },
    { path: DAY_CLOSE_ROUTE, scope: 'reports:read', query: DayCloseQuery, read: deps.backOffice.dayClose },
  ] as const;
  for (const { path, scope, query: schema, read } of reads) {
    app.get(
      path,
      backOfficeRoute(deps, path, async (c, caller) => {
        deps.backOffice.require(caller, scope);
        const query = schema.safeParse(c.req.query());
        if (!query.success) throw invalidBody(query.error);
        return c.json(
          await (read as (caller: BackOfficeCaller, query: unknown) => Promise<unknown>).call(
            deps.backOffice,
            caller,
            query.data,
          ),
          200,
        );
      }),
    );
  }
  app.post(
    `${BACK_OFFICE_PATH}/tills/:tillId/payments/:paymentId/refund`,
    backOfficeRoute(deps, BACK_OFFICE_REFUND_ROUTE, async (c, caller) => {
      const params = BackOfficePaymentParams.safeParse(c.req.param());
      if (!params.success) throw invalidBody(params.error);
      let response: Response | undefined;
      await limit(c, async () => {
        const intent = await readJsonBody(c, RefundBody);
        const { tillId, paymentId } = params.data;
        const address = clientAddressOf(c.env.incoming) ?? null;
        response = c.json(await deps.backOffice.refund(caller, tillId, paymentId, intent, address), 200);
      });
      return response!;
    }),
  );
}
