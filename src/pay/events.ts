import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { NotUnderstood } from '../contracts/pay/reader.js';
import type { PayError } from './errors.js';

/** The Pay API operations, named as the client's methods. */
export type PayOperation =
  | 'availability'
  | 'availabilityTask'
  | 'checkout'
  | 'status'
  | 'cancel'
  | 'refund'
  | 'receipt';

interface AttemptBase {
  operation: PayOperation;
  /** e.g. `/checkout` */
  path: string;
  /** 1 for the first try, 2 for the first retry... */
  attempt: number;
  /** The `x-request-id` the client sent with this attempt. */
  httpRequestId: string;
}

/**
 * What the client reports through `onEvent`, for logs and metrics. Never
 * carries bodies or tokens. Listener errors are swallowed: observing a call
 * cannot break it.
 *
 * - `request`: an attempt is about to be sent;
 * - `response`: an answer came (any status), `durationMs` from send to body read;
 * - `failure`: the attempt failed (no answer, timeout, error answer, bad answer);
 *   `retryInMs` is set when the client will try again after that wait;
 * - `responseNotUnderstood`: a 2xx held fields the client does not know
 *   (`unknown`, ignored), lacked fields it would use (`missing`: filled from
 *   the request or derived when exact, else left out) or held unreadable
 *   optional ones (`invalid`, dropped). The call still succeeds unless a field
 *   the document names is missing or invalid (then a `failure` follows);
 * - `statusNotUnderstood`: a /status or /cancel answer with a status word the
 *   dialect does not class (the call succeeds: the word is kept, `statusClass`
 *   left out; the session polls on and tells its desk);
 * - `codeNotUnderstood`: a refusal (4xx) whose code the dialect does not map,
 *   with the service's code and message (the call fails with `PAY_REFUSED`, or
 *   `TOKEN_INVALID` on a 401).
 */
export type PayClientEvent =
  | (AttemptBase & { type: 'request' })
  | (AttemptBase & { type: 'response'; httpStatus: number; durationMs: number; requestId: string | undefined })
  | (AttemptBase & { type: 'responseNotUnderstood'; httpStatus: number } & NotUnderstood)
  | (AttemptBase & { type: 'failure'; durationMs: number; error: PayError; retryInMs: number | undefined })
  | (AttemptBase & { type: 'statusNotUnderstood'; httpStatus: number; transactionId: TransactionRef; status: string })
  | (AttemptBase & { type: 'codeNotUnderstood'; httpStatus: number; code: string; messages: string[] });
