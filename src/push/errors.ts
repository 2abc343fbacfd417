import { KitError } from '../errors.js';

/**
 * Why a Push API call or a campaign failed. Stable: branch on it, never on the message.
 * `BAD_REQUEST`, `UNAUTHORIZED`, `NOT_FOUND` and `IDEMPOTENCY_CONFLICT` are the service's
 * answers; `TOO_EARLY` is its 304 (the wait is in {@link PushError.retryAt});
 * `PUSH_NETWORK` (no answer), `PUSH_TIMEOUT`, `PUSH_SERVER` (5xx) and `PUSH_PROTOCOL` (an answer outside
 * the contract) are the client's; `PROGRESS_MISMATCH` (a progress file made for
 * another campaign) and `PROGRESS_INVALID` (unreadable progress file) are the campaign's;
 * `SOURCE_INVALID` is a numbers file the campaign cannot read.
 */
export type PushErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'TOO_EARLY'
  | 'IDEMPOTENCY_CONFLICT'
  | 'PUSH_NETWORK'
  | 'PUSH_TIMEOUT'
  | 'PUSH_SERVER'
  | 'PUSH_PROTOCOL'
  | 'PROGRESS_MISMATCH'
  | 'PROGRESS_INVALID'
  | 'SOURCE_INVALID';

/** What a {@link PushError} knows besides its code. */
export interface PushErrorDetails {
  /** HTTP status of the answer; undefined when no answer came. */
  httpStatus?: number;
  /** The envelope's `errors[]` (`<field>: <message>` lines), or the client's own lines. */
  errors?: readonly string[];
  /** `TOO_EARLY`: when the call may be made again, in ms since the epoch. */
  retryAt?: number;
  /** `x-request-id` of the answer. Quote it to support. */
  requestId?: string;
  /** The API path called. */
  path?: string;
  /** Attempts made (1 when not retried). */
  attempts?: number;
}

/**
 * A failed Push API call or campaign step. Messages never carry passwords,
 * Authorization headers or message bodies.
 *
 * @example
 * try { await client.single(req) } catch (e) {
 *   if (e instanceof PushError && e.code === 'TOO_EARLY') setTimeout(retry, e.retryAt! - Date.now());
 * }
 */
export class PushError extends KitError {
  declare readonly code: PushErrorCode;
  readonly httpStatus: number | undefined;
  readonly errors: readonly string[];
  /** `TOO_EARLY`: when the call may be made again, in ms since the epoch. */
  readonly retryAt: number | undefined;
  readonly requestId: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number;

  constructor(code: PushErrorCode, message: string, details: PushErrorDetails = {}, options?: ErrorOptions) {
    super(code, message, options);
    this.httpStatus = details.httpStatus;
    this.errors = details.errors ?? [];
    this.retryAt = details.retryAt;
    this.requestId = details.requestId;
    this.path = details.path;
    this.attempts = details.attempts ?? 1;
  }
}
