import type { FavoriteSelection, LoyaltyOperation } from '../../contracts/loyalty/index.js';
import { basicAuthHeader } from '../../net/basic-auth.js';
import { clientSpan } from '../../telemetry/client-span.js';
import { LoyaltyClientError } from '../errors.js';

/** Where and how to call a merchant's Loyalty server. */
export interface LoyaltyTransportOptions {
  /** The server's base URL, e.g. `https://loyalty.merchant.example` (the `/v1/...` paths are appended). */
  baseUrl: string;
  login: string;
  password: string;
  /** Per call. Default 10 s. */
  timeoutMs?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** The input of each operation. */
export interface LoyaltyInputs {
  issueAnonymousCard: { requestId: string };
  listCategories: { cardNumber: string };
  getFavoriteCategories: { cardNumber: string };
  setFavoriteCategories: { cardNumber: string; favorites: FavoriteSelection[] };
  sendPromoCode: { cardNumber: string; code: string };
  sendReceiptQr: { cardNumber: string; qrCode: string };
}

/** An answer as it came: status, headers, the body parsed when it is JSON. */
export interface RawAnswer {
  httpStatus: number;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  text: string;
}

/**
 * Method, path and body of an operation (exported for tools that probe a server off-contract, like the conformance
 * check).
 */
export function requestOf<O extends LoyaltyOperation>(
  operation: O,
  input: LoyaltyInputs[O],
): { method: 'GET' | 'POST'; path: string; body?: unknown } {
  const card = (i: { cardNumber: string }) => `/v1/card/${encodeURIComponent(i.cardNumber)}`;
  switch (operation) {
    case 'issueAnonymousCard':
      return { method: 'POST', path: '/v1/card/anonymous', body: input };
    case 'listCategories':
      return { method: 'GET', path: `${card(input as LoyaltyInputs['listCategories'])}/categories` };
    case 'getFavoriteCategories':
      return { method: 'GET', path: `${card(input as LoyaltyInputs['getFavoriteCategories'])}/categories/favorite` };
    case 'setFavoriteCategories': {
      const i = input as LoyaltyInputs['setFavoriteCategories'];
      return { method: 'POST', path: `${card(i)}/categories/favorite`, body: { favorites: i.favorites } };
    }
    case 'sendPromoCode':
      return { method: 'POST', path: '/v1/promo/code', body: input };
    case 'sendReceiptQr':
      return { method: 'POST', path: '/v1/promo/qrCode', body: input };
    default:
      throw new TypeError(`unknown operation ${String(operation)}`);
  }
}

/**
 * Sends one HTTP request to the server and reads the answer whatever it is.
 * `authorization: false` sends none, a string sends that header (for probes).
 * Throws {@link LoyaltyClientError} only when there is no answer.
 */
export async function sendRaw(
  options: LoyaltyTransportOptions,
  request: { method: string; path: string; body?: unknown; rawBody?: string },
  authorization: string | false = basicAuthHeader(options.login, options.password),
): Promise<RawAnswer> {
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization !== false) headers.authorization = authorization;
  const payload = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const url = options.baseUrl.replace(/\/+$/, '') + request.path;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let response: Response;
  let text: string;
  try {
    const name = `${request.method} ${routeOf(request.path)}`;
    response = await clientSpan({ name, method: request.method, url, headers }, () =>
      doFetch(url, { method: request.method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) }),
    );
    text = await response.text();
  } catch (error) {
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    throw new LoyaltyClientError(
      timedOut ? 'LOYALTY_TIMEOUT' : 'LOYALTY_NETWORK',
      timedOut
        ? `${request.method} ${request.path}: no answer within ${timeoutMs} ms`
        : `${request.method} ${request.path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { httpStatus: response.status, headers: response.headers, body, text };
}

/** A path as the route it matches, the card number left out (`/v1/card/{cardNumber}/categories`): a span's name. */
function routeOf(path: string): string {
  return path.replace(/^\/v1\/card\/(?!anonymous(?:$|\?))[^/?]+/, '/v1/card/{cardNumber}').split('?')[0]!;
}
