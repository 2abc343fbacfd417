import { type ErrorCode, httpStatusOf } from '../../errors/codes.js';

/**
 * Error codes of the Loyalty API envelope `{ status, errors[] }`; their HTTP
 * statuses are the kit's table's (src/errors/codes.ts). Only refusals of the request itself are errors: what
 * happened to a promo code or a receipt (INVALID, EXPIRED, ALREADY_USED, DUPLICATE) is an
 * answer, in the 200 body's `result` (openapi/loyalty.json). An unknown card is
 * 404; unknown categories and too many favourites are 400, each
 * with its own code so the wallet can tell them from a malformed body.
 */
const LOYALTY_ERROR_CODES = [
  /** The body, a path parameter or the receipt QR string fails the contract; one `<field>: <message>` line each. */
  'BAD_REQUEST',
  /** `setFavoriteCategories` named a group or category the card's list does not have. */
  'UNKNOWN_CATEGORY',
  /** `setFavoriteCategories` chose more categories in a group than its `maxSelected`. */
  'TOO_MANY_FAVORITES',
  /** No or wrong Basic credentials; sent with `WWW-Authenticate: Basic`. */
  'UNAUTHORIZED',
  /** The path or body names a card the merchant does not know. */
  'CARD_NOT_FOUND',
  /** No such route. */
  'NOT_FOUND',
  /** The body is over the server's limit. */
  'PAYLOAD_TOO_LARGE',
  /** An unexpected failure; details are logged, never returned. */
  'INTERNAL',
  /** The merchant cannot answer now (e.g. its database is down); the wallet may retry. */
  'SERVICE_UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

/** A Loyalty API error envelope status. */
export type LoyaltyErrorCode = (typeof LOYALTY_ERROR_CODES)[number];

/** The HTTP status of each Loyalty API error code, in the order the contract lists them. */
export const LOYALTY_ERROR_STATUS: Readonly<Record<LoyaltyErrorCode, number>> = Object.fromEntries(
  LOYALTY_ERROR_CODES.map((code) => [code, httpStatusOf(code)]),
) as Record<LoyaltyErrorCode, number>;

/** True when `value` is one of the documented codes. */
export function isLoyaltyErrorCode(value: unknown): value is LoyaltyErrorCode {
  return typeof value === 'string' && Object.hasOwn(LOYALTY_ERROR_STATUS, value);
}

/** The 401 message (the wording of the document's Push API, which shares the wallet's conventions). */
export const LOYALTY_UNAUTHORIZED_MESSAGE = 'Invalid authorization token';

/** `WWW-Authenticate` of a 401 (RFC 7617). */
export const LOYALTY_WWW_AUTHENTICATE = 'Basic realm="loyalty", charset="UTF-8"';
