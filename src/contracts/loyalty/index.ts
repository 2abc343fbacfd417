export {
  AnonymousCardRequest,
  AnonymousCardResponse,
  CardNumber,
  CardPath,
  CategoriesResponse,
  Category,
  CategoryGroup,
  CategoryId,
  FavoriteSelection,
  FavoriteSelectionInput,
  FavoritesResponse,
  GroupId,
  PromoCodeRequest,
  PromoCodeResponse,
  PromoCodeResult,
  ReceiptQrRequest,
  ReceiptQrResponse,
  ReceiptQrResult,
  SetFavoritesRequest,
} from './bodies.js';
export {
  LOYALTY_ERROR_STATUS,
  LOYALTY_UNAUTHORIZED_MESSAGE,
  LOYALTY_WWW_AUTHENTICATE,
  isLoyaltyErrorCode,
  type LoyaltyErrorCode,
} from './errors.js';
export {
  MAX_RECEIPT_QR_LENGTH,
  formatReceiptQr,
  parseReceiptQr,
  receiptTimeOf,
  type FiscalReceipt,
  type ReceiptOperationType,
  type ReceiptQrParse,
} from './receipt-qr.js';
export { LOYALTY_OPERATIONS, type LoyaltyOperation } from './operations.js';
export { LOYALTY_API_VERSION, LOYALTY_API_VERSIONS, type LoyaltyApiVersion } from './versions.js';
