import type {
  AnonymousCardResponse,
  CategoriesResponse,
  FavoriteSelection,
  FavoritesResponse,
  FiscalReceipt,
  PromoCodeResponse,
  ReceiptQrResponse,
} from '../contracts/loyalty/index.js';

/** What the framework tells a handler about the call. */
export interface LoyaltyCallContext {
  /** The request id (`x-request-id`, echoed or generated); put it in your logs. */
  readonly requestId: string;
  /** The Basic login the wallet service used. */
  readonly login: string;
}

/**
 * The merchant's side of the Loyalty API: one function per operation, given
 * input already validated against the contract, returning the 200 body. To
 * refuse, throw a `LoyaltyError` (e.g. `CARD_NOT_FOUND`); anything else thrown
 * is a 500 `INTERNAL` (logged, nothing leaked). What the framework returns is
 * checked against the contract too, so a handler cannot answer off-contract.
 */
export interface LoyaltyHandlers {
  /**
   * `POST /v1/card/anonymous`. Must be idempotent by `requestId` (the framework also coalesces repeats, see
   * `idempotency`).
   */
  issueAnonymousCard(input: { requestId: string }, ctx: LoyaltyCallContext): Promise<AnonymousCardResponse>;
  /** `GET /v1/card/{cardNumber}/categories`. */
  listCategories(input: { cardNumber: string }, ctx: LoyaltyCallContext): Promise<CategoriesResponse>;
  /** `GET /v1/card/{cardNumber}/categories/favorite`. */
  getFavoriteCategories(input: { cardNumber: string }, ctx: LoyaltyCallContext): Promise<FavoritesResponse>;
  /**
   * `POST /v1/card/{cardNumber}/categories/favorite`: replace the selection; throw `UNKNOWN_CATEGORY` /
   * `TOO_MANY_FAVORITES`.
   */
  setFavoriteCategories(
    input: { cardNumber: string; favorites: FavoriteSelection[] },
    ctx: LoyaltyCallContext,
  ): Promise<FavoritesResponse>;
  /** `POST /v1/promo/code`; `code` is trimmed. */
  sendPromoCode(input: { cardNumber: string; code: string }, ctx: LoyaltyCallContext): Promise<PromoCodeResponse>;
  /** `POST /v1/promo/qrCode`; `receipt` is the parsed, validated QR string (`qrCode`). */
  sendReceiptQr(
    input: { cardNumber: string; qrCode: string; receipt: FiscalReceipt },
    ctx: LoyaltyCallContext,
  ): Promise<ReceiptQrResponse>;
}
