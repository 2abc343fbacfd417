import type { z } from 'zod';
import {
  AnonymousCardResponse,
  CategoriesResponse,
  FavoritesResponse,
  PromoCodeResponse,
  ReceiptQrResponse,
  isLoyaltyErrorCode,
  type FavoriteSelection,
  type LoyaltyOperation,
} from '../../contracts/loyalty/index.js';
import { ErrorEnvelope } from '../../contracts/errors.js';
import { LoyaltyClientError, LoyaltyError } from '../errors.js';
import { requestOf, sendRaw, type LoyaltyInputs, type LoyaltyTransportOptions } from './transport.js';
import { validationErrors } from '../../contracts/validation-errors.js';

/** Options of {@link createLoyaltyClient}. */
export type LoyaltyClientOptions = LoyaltyTransportOptions;

/** The wallet side of the Loyalty API: one typed method per operation. */
export interface LoyaltyClient {
  issueAnonymousCard(requestId: string): Promise<AnonymousCardResponse>;
  listCategories(cardNumber: string): Promise<CategoriesResponse>;
  getFavoriteCategories(cardNumber: string): Promise<FavoritesResponse>;
  setFavoriteCategories(cardNumber: string, favorites: FavoriteSelection[]): Promise<FavoritesResponse>;
  sendPromoCode(cardNumber: string, code: string): Promise<PromoCodeResponse>;
  sendReceiptQr(cardNumber: string, qrCode: string): Promise<ReceiptQrResponse>;
}

const RESPONSES = {
  issueAnonymousCard: AnonymousCardResponse,
  listCategories: CategoriesResponse,
  getFavoriteCategories: FavoritesResponse,
  setFavoriteCategories: FavoritesResponse,
  sendPromoCode: PromoCodeResponse,
  sendReceiptQr: ReceiptQrResponse,
} as const satisfies Record<LoyaltyOperation, z.ZodType>;

type Output<O extends LoyaltyOperation> = z.infer<(typeof RESPONSES)[O]>;

/**
 * A typed client of a merchant's Loyalty server, made from the same contract
 * as the server. A 200 answer is checked against the contract; an error
 * answer in the envelope throws {@link LoyaltyError} with its code (e.g.
 * `CARD_NOT_FOUND`); no answer or an off-contract one throws {@link LoyaltyClientError}.
 *
 * @example
 * const loyalty = createLoyaltyClient({ baseUrl: 'http://127.0.0.1:8091', login: 'demo-wallet', password });
 * const { cardNumber, cardKey } = await loyalty.issueAnonymousCard(crypto.randomUUID());
 * const { result } = await loyalty.sendPromoCode(cardNumber, 'WELCOME100');
 */
export function createLoyaltyClient(options: LoyaltyClientOptions): LoyaltyClient {
  async function call<O extends LoyaltyOperation>(operation: O, input: LoyaltyInputs[O]): Promise<Output<O>> {
    const request = requestOf(operation, input);
    const answer = await sendRaw(options, request);
    if (answer.httpStatus === 200) {
      const parsed = RESPONSES[operation].safeParse(answer.body);
      if (parsed.success) return parsed.data as Output<O>;
      throw new LoyaltyClientError(
        'LOYALTY_PROTOCOL',
        `${operation}: the answer is off-contract: ${validationErrors(parsed.error).join('; ')}`,
        { httpStatus: 200 },
      );
    }
    const envelope = ErrorEnvelope.safeParse(answer.body);
    if (envelope.success && isLoyaltyErrorCode(envelope.data.status)) {
      throw new LoyaltyError(envelope.data.status, envelope.data.errors, { httpStatus: answer.httpStatus });
    }
    throw new LoyaltyClientError(
      'LOYALTY_PROTOCOL',
      `${operation}: HTTP ${answer.httpStatus} without a documented error envelope`,
      { httpStatus: answer.httpStatus },
    );
  }
  return {
    issueAnonymousCard: (requestId) => call('issueAnonymousCard', { requestId }),
    listCategories: (cardNumber) => call('listCategories', { cardNumber }),
    getFavoriteCategories: (cardNumber) => call('getFavoriteCategories', { cardNumber }),
    setFavoriteCategories: (cardNumber, favorites) => call('setFavoriteCategories', { cardNumber, favorites }),
    sendPromoCode: (cardNumber, code) => call('sendPromoCode', { cardNumber, code }),
    sendReceiptQr: (cardNumber, qrCode) => call('sendReceiptQr', { cardNumber, qrCode }),
  };
}
