/**
 * A refusal with its HTTP status and error envelope (`{ status, errors }`).
 * Thrown anywhere in a request's handling; `sendProblem` or `writeProblem` (reply.ts) writes it,
 * so every refusal has the same shape whichever path produced it.
 */
export class HttpProblem extends Error {
  constructor(
    readonly httpStatus: number,
    readonly status: string,
    readonly errors: readonly string[],
    /** Extra response headers, names in lower case as on the wire. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${httpStatus} ${status}`);
    this.name = 'HttpProblem';
  }
}
