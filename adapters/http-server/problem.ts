import { KitError, type KitErrorCode } from '../../src/errors.js';
import { httpStatusOf } from '../../src/errors/codes.js';

/** What a refusal may carry besides its code and lines. */
export interface HttpProblemOptions {
  /** Extra response headers, names in lower case as on the wire. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The status to answer instead of the code's in the table (src/errors/codes.ts). Only where a server means
   * another on purpose (the emulated Pay API's own statuses, a status a handler chose), said why where it is set.
   */
  readonly httpStatus?: number;
}

/**
 * A refusal with its HTTP status and error envelope (`{ status, errors }`).
 * Thrown anywhere in a request's handling; `sendProblem` or `writeProblem` (reply.ts) writes it,
 * so every refusal has the same shape whichever path produced it. Its `code` is the envelope's `status`,
 * a code of the table in src/errors/codes.ts, which gives its HTTP status.
 */
export class HttpProblem extends KitError {
  /** The HTTP status answered: the code's in the table unless `options.httpStatus` says otherwise. */
  readonly httpStatus: number;
  /** Extra response headers, names in lower case as on the wire. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly status: KitErrorCode,
    readonly errors: readonly string[],
    options: HttpProblemOptions = {},
  ) {
    const httpStatus = options.httpStatus ?? httpStatusOf(status);
    super(status, `${httpStatus} ${status}`);
    this.httpStatus = httpStatus;
    this.headers = options.headers ?? {};
  }
}
