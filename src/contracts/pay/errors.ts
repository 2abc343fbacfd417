/**
 * Error codes of the Pay API (DESIGN.md section 3) and their HTTP statuses.
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

/** The header carrying the token from `getToken` (DESIGN.md section 2). */
export const TOKEN_HEADER = 'X-Wallet-Token';
