import { LOYALTY_ERROR_STATUS, type LoyaltyErrorCode } from '../contracts/loyalty/errors.js';

/**
 * A refusal of a Loyalty API request, with its documented code. A merchant's
 * handler throws it; the server answers `{ status: code, errors }` with the
 * code's HTTP status. The typed client throws it for an error answer.
 *
 * @example
 * throw new LoyaltyError('CARD_NOT_FOUND', [`cardNumber: no such card`]);
 */
export class LoyaltyError extends Error {
  readonly code: LoyaltyErrorCode;
  /** The envelope's `errors` lines: `<field>: <message>` or a free message. */
  readonly errors: readonly string[];
  /** The HTTP status the code is answered with. */
  readonly httpStatus: number;

  constructor(code: LoyaltyErrorCode, errors: readonly string[] | string, options?: ErrorOptions & { httpStatus?: number }) {
    const lines = typeof errors === 'string' ? [errors] : [...errors];
    super(`${code}: ${lines.join('; ')}`, options);
    this.name = 'LoyaltyError';
    this.code = code;
    this.errors = lines;
    this.httpStatus = options?.httpStatus ?? LOYALTY_ERROR_STATUS[code];
  }
}

/** Why the typed client got no usable answer. */
export type LoyaltyClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'BAD_RESPONSE';

/**
 * The client reached no answer (`NETWORK_ERROR`, `TIMEOUT`), or the answer is
 * not what the contract says (`BAD_RESPONSE`: wrong shape, unknown status code).
 * An answer in the documented envelope is a {@link LoyaltyError} instead.
 */
export class LoyaltyClientError extends Error {
  readonly code: LoyaltyClientErrorCode;
  /** HTTP status of the answer, when there was one. */
  readonly httpStatus: number | undefined;

  constructor(code: LoyaltyClientErrorCode, message: string, options?: ErrorOptions & { httpStatus?: number }) {
    super(message, options);
    this.name = 'LoyaltyClientError';
    this.code = code;
    this.httpStatus = options?.httpStatus;
  }
}
