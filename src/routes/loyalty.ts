import { createRoute } from '@hono/zod-openapi';
import { ErrorEnvelope } from '../contracts/errors.js';
import {
  AnonymousCardRequest,
  AnonymousCardResponse,
  CardPath,
  CategoriesResponse,
  FavoritesResponse,
  PromoCodeRequest,
  PromoCodeResponse,
  ReceiptQrRequest,
  ReceiptQrResponse,
  SetFavoritesRequest,
} from '../contracts/loyalty/bodies.js';

/** Paths of the Loyalty API (the interface document, section 4.4), in OpenAPI form. */
export const LOYALTY_PATHS = {
  categories: '/v1/card/{cardNumber}/categories',
  favorites: '/v1/card/{cardNumber}/categories/favorite',
  promoCode: '/v1/promo/code',
  anonymousCard: '/v1/card/anonymous',
  receiptQr: '/v1/promo/qrCode',
} as const;

/** The security scheme's name in the OpenAPI document. */
export const LOYALTY_SECURITY_SCHEME = 'walletBasic';

const security = [{ [LOYALTY_SECURITY_SCHEME]: [] }];

function error(description: string) {
  return { description, content: { 'application/json': { schema: ErrorEnvelope } } };
}

const common = {
  400: error('The body or a path parameter fails the contract (`BAD_REQUEST`, one `<field>: <message>` line each).'),
  401: error('No or wrong Basic credentials (`UNAUTHORIZED`), with `WWW-Authenticate: Basic`.'),
  413: error("The body is over the server's limit (`PAYLOAD_TOO_LARGE`)."),
  500: error('An unexpected failure (`INTERNAL`); details are logged, never returned.'),
  503: error('The merchant cannot answer now (`SERVICE_UNAVAILABLE`); retry.'),
};
const cardNotFound = { 404: error('No such card (`CARD_NOT_FOUND`).') };

function ok<T>(schema: T, description: string) {
  return { 200: { description, content: { 'application/json': { schema } } } };
}

function body<T>(schema: T) {
  return { body: { required: true, content: { 'application/json': { schema } } } };
}

export const issueAnonymousCardRoute = createRoute({
  operationId: 'issueAnonymousCard',
  method: 'post',
  path: LOYALTY_PATHS.anonymousCard,
  tags: ['Cards'],
  security,
  summary: 'Issue a loyalty card without prior reservation of a card number',
  description:
    'Since 1.2.0. Idempotent by `requestId`: repeating it (also concurrently) answers the same card. ' +
    "`cardKey` (card-bound partners only) is the card's diversified key, from which the app draws the barcode.",
  request: body(AnonymousCardRequest),
  responses: { ...ok(AnonymousCardResponse, 'The card (the same one for a repeated requestId).'), ...common },
});

export const listCategoriesRoute = createRoute({
  operationId: 'listCategories',
  method: 'get',
  path: LOYALTY_PATHS.categories,
  tags: ['Categories'],
  security,
  summary: 'Lists of categories from which favorites are chosen',
  description: 'Since 1.4.0.',
  request: { params: CardPath },
  responses: { ...ok(CategoriesResponse, 'The category groups offered to this card.'), ...common, ...cardNotFound },
});

export const getFavoriteCategoriesRoute = createRoute({
  operationId: 'getFavoriteCategories',
  method: 'get',
  path: LOYALTY_PATHS.favorites,
  tags: ['Categories'],
  security,
  summary: "Categories currently set as the user's favorites",
  description: 'Since 1.4.0.',
  request: { params: CardPath },
  responses: { ...ok(FavoritesResponse, 'The stored selection.'), ...common, ...cardNotFound },
});

export const setFavoriteCategoriesRoute = createRoute({
  operationId: 'setFavoriteCategories',
  method: 'post',
  path: LOYALTY_PATHS.favorites,
  tags: ['Categories'],
  security,
  summary: 'Set the favorite categories chosen by the user',
  description: 'Since 1.4.0. Replaces the whole selection; answers the stored one. Nothing is stored when refused.',
  request: { params: CardPath, ...body(SetFavoritesRequest) },
  responses: {
    ...ok(FavoritesResponse, 'The stored selection.'),
    ...common,
    ...cardNotFound,
    400: error(
      "`BAD_REQUEST` (shape), `UNKNOWN_CATEGORY` (a group or category not in the card's list) or " +
        "`TOO_MANY_FAVORITES` (more than the group's `maxSelected`).",
    ),
  },
});

export const sendPromoCodeRoute = createRoute({
  operationId: 'sendPromoCode',
  method: 'post',
  path: LOYALTY_PATHS.promoCode,
  tags: ['Promotions'],
  security,
  summary: 'Send a promotion code entered by the user on the application screen',
  description: "Since 1.3.0. What happened to the code is the 200 body's `result`, not an error status.",
  request: body(PromoCodeRequest),
  responses: { ...ok(PromoCodeResponse, 'The outcome.'), ...common, ...cardNotFound },
});

export const sendReceiptQrRoute = createRoute({
  operationId: 'sendReceiptQr',
  method: 'post',
  path: LOYALTY_PATHS.receiptQr,
  tags: ['Promotions'],
  security,
  summary: 'Send the QR code of a cash receipt',
  description:
    'Since 1.1.0. A receipt is accepted once (by fiscal drive and document number); again it is `DUPLICATE`. ' +
    'A QR string that is not a fiscal receipt string is 400, one `qrCode: <part> ...` line per bad part.',
  request: body(ReceiptQrRequest),
  responses: { ...ok(ReceiptQrResponse, 'The outcome.'), ...common, ...cardNotFound },
});

/** Every route of the Loyalty API, keyed by operation. */
export const LOYALTY_ROUTES = {
  issueAnonymousCard: issueAnonymousCardRoute,
  listCategories: listCategoriesRoute,
  getFavoriteCategories: getFavoriteCategoriesRoute,
  setFavoriteCategories: setFavoriteCategoriesRoute,
  sendPromoCode: sendPromoCodeRoute,
  sendReceiptQr: sendReceiptQrRoute,
} as const;
