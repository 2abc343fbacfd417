import { KitError, type KitErrorCode } from '../../src/errors.js';

/**
 * A refusal with its HTTP status and error envelope (`{ status, errors }`).
 * Thrown anywhere in a request's handling; `sendProblem` or `writeProblem` (reply.ts) writes it,
 * so every refusal has the same shape whichever path produced it. Its `code` is the envelope's `status`,
 * a code of the table in src/errors/codes.ts.
 */
export class HttpProblem extends KitError {
  constructor(
    readonly httpStatus: number,
    readonly status: KitErrorCode,
    readonly errors: readonly string[],
    /** Extra response headers, names in lower case as on the wire. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(status, `${httpStatus} ${status}`);
  }
}
