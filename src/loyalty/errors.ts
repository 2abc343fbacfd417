import type { LoyaltyErrorCode } from '../contracts/loyalty/errors.js';
import { KitError } from '../errors.js';
import { httpStatusOf } from '../errors/codes.js';

/**
 * A refusal of a Loyalty API request, with its documented code. A merchant's
 * handler throws it; the server answers `{ status: code, errors }` with the
 * code's HTTP status. The typed client throws it for an error answer.
 *
 * @example
 * throw new LoyaltyError('CARD_NOT_FOUND', [`cardNumber: no such card`]);
 */
export class LoyaltyError extends KitError {
  declare readonly code: LoyaltyErrorCode;
  /** The envelope's `errors` lines: `<field>: <message>` or a free message. */
  readonly errors: readonly string[];
  /** The HTTP status the code is answered with. */
  readonly httpStatus: number;

  constructor(
    code: LoyaltyErrorCode,
    errors: readonly string[] | string,
    options?: ErrorOptions & { httpStatus?: number },
  ) {
    const lines = typeof errors === 'string' ? [errors] : [...errors];
    super(code, `${code}: ${lines.join('; ')}`, options);
    this.errors = lines;
    this.httpStatus = options?.httpStatus ?? httpStatusOf(code);
  }
}

/** Why the typed client got no usable answer. */
export type LoyaltyClientErrorCode = 'LOYALTY_NETWORK' | 'LOYALTY_TIMEOUT' | 'LOYALTY_PROTOCOL';

/**
 * The client reached no answer (`LOYALTY_NETWORK`, `LOYALTY_TIMEOUT`), or the answer is
 * not what the contract says (`LOYALTY_PROTOCOL`: wrong shape, unknown status code).
 * An answer in the documented envelope is a {@link LoyaltyError} instead.
 */
export class LoyaltyClientError extends KitError {
  declare readonly code: LoyaltyClientErrorCode;
  /** HTTP status of the answer, when there was one. */
  readonly httpStatus: number | undefined;

  constructor(code: LoyaltyClientErrorCode, message: string, options?: ErrorOptions & { httpStatus?: number }) {
    super(code, message, options);
    this.httpStatus = options?.httpStatus;
  }
}
