import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import { requestBodyLimit } from '../../../adapters/http-server/body-limit.js';
import type { NodeEnv } from '../../../adapters/http-server/node-env.js';
import { HttpProblem } from '../../../adapters/http-server/problem.js';
import { readJsonBody } from '../../../adapters/cashdesk-http/json-body.js';
import { problemOf } from '../../../adapters/cashdesk-http/counted-answer.js';
import type { BackOfficeCaller } from '../../cashdesk/back-office/credentials.js';
import type { BackOffice } from '../../cashdesk/back-office/service.js';
import { DayCloseQuery, ReconciliationQuery } from '../../contracts/back-office-reports.js';
import { BackOfficePaymentParams } from '../../contracts/back-office.js';
import { RefundBody } from '../../contracts/cashdesk-payments.js';
import { validationErrors } from '../../contracts/validation-errors.js';
import { clientAddressOf } from '../../net/client-address.js';

/**
 * The console as the back office sees it: the `console` actor of the audit log, reading the reports and refunding.
 * No key: the console exists in the demo system only, on loopback by default.
 */
export const CONSOLE_CALLER: BackOfficeCaller = {
  id: 'demo-console',
  kind: 'console',
  scopes: new Set(['payments:read', 'payments:refund', 'reports:read']),
};

type Handler = (c: Context<NodeEnv>) => Promise<Response>;

/** A refusal of the back office or the payments answered in the kit's envelope with its status. */
const answered =
  (handler: Handler): Handler =>
  async (c) => {
    try {
      return await handler(c);
    } catch (error) {
      throw problemOf(error);
    }
  };

/** `value` as `schema` reads it, or 400 naming each bad field. */
function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpProblem('BAD_REQUEST', validationErrors(result.error));
  return result.data;
}

/**
 * Mounts the console's reconciliation and day-close reads (`{api}/reconciliation?from&to`,
 * `{api}/day-close?date&tz`) and its refund of a till's payment (`POST {api}/tills/{tillId}/payments/{paymentId}/
 * refund`, the till refund's body): each through the back office in process, as {@link CONSOLE_CALLER}, its
 * client address in the audit log. `refunded` tells the console's pages.
 */
export function mountConsoleReports(
  app: OpenAPIHono<NodeEnv>,
  api: string,
  backOffice: BackOffice,
  refunded: () => void,
): void {
  app.get(
    `${api}/reconciliation`,
    answered(async (c) => {
      return c.json(await backOffice.reconciliation(CONSOLE_CALLER, parsed(ReconciliationQuery, c.req.query())));
    }),
  );
  app.get(
    `${api}/day-close`,
    answered(async (c) => {
      return c.json(await backOffice.dayClose(CONSOLE_CALLER, parsed(DayCloseQuery, c.req.query())));
    }),
  );
  const limit = requestBodyLimit(64 * 1024, () => {
    throw new HttpProblem('PAYLOAD_TOO_LARGE', ['body: at most 64 KiB']);
  });
  app.post(
    `${api}/tills/:tillId/payments/:paymentId/refund`,
    limit,
    answered(async (c) => {
      const { tillId, paymentId } = parsed(BackOfficePaymentParams, c.req.param());
      const intent = await readJsonBody(c, RefundBody);
      const address = clientAddressOf(c.env.incoming) ?? null;
      const view = await backOffice.refund(CONSOLE_CALLER, tillId, paymentId, intent, address);
      refunded();
      return c.json(view);
    }),
  );
}
