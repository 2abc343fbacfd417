import { problem, type HttpProblem } from '../../../adapters/http-server/index.js';
import { PAY_ERROR_STATUS, SANDBOX_ERROR_STATUS } from '../../contracts/pay/errors.js';
import type { ErrorCode } from '../../errors/codes.js';

/**
 * The emulated Pay API's refusal codes and their HTTP statuses: the Pay API's own (openapi/pay.json), the
 * sandbox's additions, and `INVOICE_OPEN` (strict checkout, off by default). These are the Pay API's statuses,
 * not the cash desk's of the code table: `TOKEN_INVALID` is 401 here (the caller's token), where a till is
 * answered 409 for the same code relayed (the wallet's token, not the till's key).
 */
export const SANDBOX_PAY_STATUS = {
  ...PAY_ERROR_STATUS,
  ...SANDBOX_ERROR_STATUS,
  INVOICE_OPEN: 409,
} as const satisfies Readonly<Partial<Record<ErrorCode, number>>>;

/** A refusal code of the emulated Pay API. */
export type SandboxPayCode = keyof typeof SANDBOX_PAY_STATUS;

/**
 * A refusal of the emulated Pay API, with its status from {@link SANDBOX_PAY_STATUS}.
 *
 * @example
 * throw payRefusal('AMOUNT_MISMATCH', ['amount: nothing left to refund']);
 */
export function payRefusal(code: SandboxPayCode, errors: readonly string[]): HttpProblem {
  return problem(code, errors, { httpStatus: SANDBOX_PAY_STATUS[code] });
}
