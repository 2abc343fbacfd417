import type { Context } from 'hono';
import type { Logger } from 'pino';
import { paymentRefusal } from '../../src/cashdesk/payments/errors.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { REQUEST_ID_HEADER, withRequestId } from '../../src/log/request-id.js';
import { CLIENT_CLOSED_REQUEST, isClientAbort } from '../http-server/failures.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { HttpProblem } from '../http-server/problem.js';
import { databaseUnavailable } from '../http-server/refusals.js';
import { requestIdOf } from '../http-server/request-id.js';
import type { RequestCounter } from '../http-server/request-metrics.js';

/** The HTTP refusal of a payment call's failure; anything that is none stays as it is (a bug: 500). */
export function problemOf(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const refusal = paymentRefusal(error);
  if (refusal === undefined) return error;
  return new HttpProblem(refusal.code, refusal.errors.length > 0 ? refusal.errors : [refusal.message]);
}

/** Where a payment or back-office route counts and logs its answers. */
export interface AnswerLog {
  logger: Logger;
  requests: RequestCounter;
}

/**
 * Runs a route's handler with the request's id current (the Pay client sends it on), then counts and logs its
 * answer in one line by route pattern (a label per paymentId would grow without bound); a failure is counted with
 * the status it will be answered with and thrown as its HTTP refusal.
 */
export async function countedAnswer(
  c: Context<NodeEnv>,
  log: AnswerLog,
  route: string,
  message: string,
  run: () => Promise<Response>,
): Promise<Response> {
  const reqId = requestIdOf(c.env.incoming);
  c.header(REQUEST_ID_HEADER, reqId);
  const answered = (status: number) => {
    log.requests.count(route, status);
    log.logger.info({ reqId, method: c.req.method, route, status }, message);
  };
  try {
    const response = await withRequestId(reqId, run);
    answered(response.status);
    return response;
  } catch (error) {
    const problem = problemOf(error);
    answered(
      problem instanceof HttpProblem ? problem.httpStatus : isClientAbort(problem) ? CLIENT_CLOSED_REQUEST : 500,
    );
    throw problem;
  }
}
