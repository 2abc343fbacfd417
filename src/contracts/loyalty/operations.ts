/** The six operations, by the names the framework's handlers, the client and the conformance check use. */
export const LOYALTY_OPERATIONS = [
  'issueAnonymousCard',
  'listCategories',
  'getFavoriteCategories',
  'setFavoriteCategories',
  'sendPromoCode',
  'sendReceiptQr',
] as const;

/** A Loyalty API operation name. */
export type LoyaltyOperation = (typeof LOYALTY_OPERATIONS)[number];
