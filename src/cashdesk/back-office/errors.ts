import { KitError } from '../../errors.js';

/**
 * Why the back office refused a caller that did authenticate: `SCOPE_MISSING`, its key lacks the scope the route
 * needs (403); `REFUND_LIMIT_EXCEEDED`, the refund is over the key's `maxRefundAmount` (403).
 */
export type BackOfficeErrorCode = 'SCOPE_MISSING' | 'REFUND_LIMIT_EXCEEDED';

/** A back-office refusal; `errors` are `<field>: <message>` lines, naming no key. */
export class BackOfficeError extends KitError {
  declare readonly code: BackOfficeErrorCode;
  readonly errors: readonly string[];

  constructor(code: BackOfficeErrorCode, message: string, errors: readonly string[] = [message]) {
    super(code, message);
    this.errors = errors;
  }
}
