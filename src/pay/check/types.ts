import type { TransactionRef } from '../../contracts/pay/bodies.js';
import type { PayCheckExchange } from './record.js';
import type { PayClientErrorCode } from '../errors.js';
import type { PayOperation } from '../events.js';
import type { PayProfile } from '../options.js';

/**
 * One operation's verdict: `PASS` (the answer has what the interface document
 * names, nothing the contract does not know), `DIFFERS` (it worked, but the
 * answer holds fields the contract does not know or values it cannot read),
 * `FAIL` (refused, no answer, or an answer lacking what the document requires),
 * `SKIPPED` (not run: no path under the profile, or an earlier step gave no transactionId).
 */
export type PayCheckVerdict = 'PASS' | 'DIFFERS' | 'FAIL' | 'SKIPPED';

/** A field of an answer and the value seen there (short JSON text; secrets masked). */
export interface PayCheckField {
  /** JSON path, e.g. `providers[0].Bank_Code`. */
  field: string;
  value: string;
  /** Why the value could not be read (invalid fields). */
  message?: string;
}

/** What went wrong in a FAIL. */
export interface PayCheckFailure {
  code: PayClientErrorCode | 'ERROR';
  message: string;
  /** The envelope's `errors[]`, or the reader's `<field>: <message>` lines for a 2xx it could not use. */
  errors: string[];
  /** The envelope's `status` as the service wrote it. */
  serverCode?: string;
  /** The answer's body text (first 4 KB), when one came. */
  body?: string;
}

/** The verdict on one operation and everything it is based on. */
export interface PayCheckResult {
  operation: PayOperation;
  /** The path called (or that would have been). */
  path: string;
  verdict: PayCheckVerdict;
  /** The last answer's HTTP status. */
  httpStatus?: number;
  durationMs?: number;
  /** Fields the contract does not know (the client ignores them), with their values. */
  unknown: PayCheckField[];
  /** Fields present but not readable: optional ones are dropped, needed ones make a FAIL. */
  invalid: PayCheckField[];
  /**
   * The kit's own fields the answer lacks (filled from the request, derived or left out): normal for a service that
   * follows only the document.
   */
  missing: string[];
  failure?: PayCheckFailure;
  /** Observations and what to try. */
  notes: string[];
  /** Each request and answer, secrets masked. */
  exchanges: PayCheckExchange[];
}

/** The whole probe. `ok`: no FAIL. */
export interface PayCheckReport {
  ok: boolean;
  baseUrl: string;
  profile: PayProfile;
  tokenHeader: string;
  /** How the token was computed (`kit`, `hmac-sha256-hex`, `module ./sign.mjs`...). */
  tokenScheme: string;
  cardSession: string;
  /** The requestId of the probe's task and checkout. */
  requestId: string;
  /** The transaction the probe's /checkout made, if any. */
  transactionId?: TransactionRef;
  results: PayCheckResult[];
  /**
   * Status words and error codes the service used that the dialect does not map (extend `pay.dialect` with them), and
   * the answers' fields expected and not found (map the service's names in `pay.dialect.fields`).
   */
  unmapped: { statuses: string[]; codes: string[]; fields: string[] };
  /** Which client options to consider, from the verdicts as a whole. */
  advice: string[];
}

/** Progress of {@link checkPayApi}: an operation starts, an operation is judged. */
export type PayCheckProgress =
  | { type: 'start'; operation: PayOperation; path: string }
  | { type: 'done'; result: PayCheckResult };
