import { z } from 'zod';

/**
 * Error codes of the kit's Pay API and their HTTP statuses.
 * Checks run in this order, the first failure answers: token (401), body
 * shape (400), amounts (422), then stored state (404, 409). Nothing is stored
 * for a refused request.
 */
export const PAY_ERROR_STATUS = {
  BAD_REQUEST: 400,
  TOKEN_INVALID: 401,
  NOT_FOUND: 404,
  CARD_SESSION_INVALID: 409,
  IDEMPOTENCY_CONFLICT: 409,
  INVALID_STATE: 409,
  AMOUNT_MISMATCH: 422,
} as const;

/** A Pay API error code. */
export type PayErrorCode = keyof typeof PAY_ERROR_STATUS;

/** The header carrying the token from `getToken` (the README's Pay API tokens). */
export const TOKEN_HEADER = 'X-Wallet-Token';

/** Codes the sandbox adds to the Pay API's: a body that is not JSON by type, and an injected or real outage (retry). */
export const SANDBOX_ERROR_STATUS = { UNSUPPORTED_MEDIA_TYPE: 415, UNAVAILABLE: 503 } as const;

type AnyCode = PayErrorCode | keyof typeof SANDBOX_ERROR_STATUS;
const CODES = [...Object.keys(PAY_ERROR_STATUS), ...Object.keys(SANDBOX_ERROR_STATUS)] as [AnyCode, ...AnyCode[]];

/**
 * The Pay API's error envelope: `status` is one of the codes, `errors` are
 * `<field>: <message>` lines or free messages (never which token check failed).
 *
 * @example
 * PayErrorEnvelope.parse({ status: 'AMOUNT_MISMATCH', errors: ['totalAmount: must equal ...'] })
 */
export const PayErrorEnvelope = z
  .object({
    status: z.enum(CODES).meta({ example: 'AMOUNT_MISMATCH' }),
    errors: z
      .array(z.string())
      .meta({ example: ['totalAmount: must equal the purchase amount 27980 minus discountAmount 5000 (22980)'] }),
  })
  .meta({ id: 'PayError' });

/** A Pay API error answer. */
export type PayErrorEnvelope = z.infer<typeof PayErrorEnvelope>;
