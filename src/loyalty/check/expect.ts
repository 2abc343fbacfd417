import type { z } from 'zod';
import { ErrorEnvelope } from '../../contracts/errors.js';
import { LOYALTY_ERROR_STATUS, type LoyaltyErrorCode } from '../../contracts/loyalty/index.js';
import { KitError } from '../../errors.js';
import type { RawAnswer } from '../client/transport.js';
import { validationErrors } from '../../contracts/validation-errors.js';

/** One unmet expectation; its message is the FAIL line's reason. */
export class CheckFailure extends KitError {
  declare readonly code: 'CHECK_FAILED';

  constructor(reason: string) {
    super('CHECK_FAILED', reason);
  }
}

/** Fails the check with `reason` unless `condition`. */
export function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailure(reason);
}

function describe(answer: RawAnswer): string {
  const text = answer.text.length > 200 ? `${answer.text.slice(0, 200)}...` : answer.text;
  return `HTTP ${answer.httpStatus} ${text}`.trim();
}

/** A 200 whose body satisfies `schema`; its data. */
export function expectOk<T extends z.ZodType>(answer: RawAnswer, schema: T, what: string): z.infer<T> {
  check(answer.httpStatus === 200, `${what}: expected 200, got ${describe(answer)}`);
  const parsed = schema.safeParse(answer.body);
  check(
    parsed.success,
    `${what}: the 200 body is off-contract ` +
      `(${(parsed.error === undefined ? [] : validationErrors(parsed.error)).join('; ')})`,
  );
  return parsed.data;
}

/** An error envelope with one of `codes`, answered with the code's documented HTTP status. */
export function expectError(
  answer: RawAnswer,
  codes: readonly LoyaltyErrorCode[],
  what: string,
): { status: string; errors: string[] } {
  const wanted = codes.map((c) => `${LOYALTY_ERROR_STATUS[c]} ${c}`).join(' or ');
  const envelope = ErrorEnvelope.safeParse(answer.body);
  check(envelope.success, `${what}: expected ${wanted}, got ${describe(answer)}`);
  const code = envelope.data.status as LoyaltyErrorCode;
  check(
    codes.includes(code) && LOYALTY_ERROR_STATUS[code] === answer.httpStatus,
    `${what}: expected ${wanted}, got ${describe(answer)}`,
  );
  return envelope.data;
}
