import { HttpProblem } from '../../adapters/http/problems.js';
import type { KitErrorCode } from '../errors.js';

export { HttpProblem };

/**
 * Throws-ready refusals shared by the kit's API servers (sandbox, Loyalty,
 * Callback receiver). Every one answers the envelope `{ status, errors[] }`.
 *
 * @example
 * throw problem(404, 'NOT_FOUND', ['transactionId: no such transaction']);
 */
export function problem(httpStatus: number, status: KitErrorCode, errors: readonly string[], headers?: Record<string, string>): HttpProblem {
  return new HttpProblem(httpStatus, status, errors, headers);
}
