import { deriveCardKey } from '../../adapters/node/primitives.js';
import { sqlState } from '../db/index.js';
import type { FiscalReceipt, ReceiptQrResponse } from '../contracts/loyalty/index.js';
import { LoyaltyError } from '../loyalty/errors.js';
import type { LoyaltyHandlers } from '../loyalty/handlers.js';
import { newCardNumber } from './card-number.js';
import type { ResolvedLoyaltyProgramOptions } from './options.js';
import type { LoyaltyStore } from './store.js';

/** Slack for a receipt time in the future: `t` is the register's local time, with no zone. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** The bonus for a purchase of `sum` kopecks: `rate` basis points, rounded down. */
export function receiptBonus(sum: number, basisPoints: number): number {
  return Math.floor((sum * basisPoints) / 10_000);
}

const PROMO_MESSAGES = {
  INVALID: 'There is no such promo code.',
  EXPIRED: 'This promo code has expired.',
  ALREADY_USED: 'This promo code has already been used.',
} as const;

/** Why a well-formed receipt does not earn, or undefined when it does. */
function ineligible(receipt: FiscalReceipt, now: number, maxAgeDays: number): string | undefined {
  if (receipt.operationType !== 1) return 'Only purchase receipts (n=1) earn bonuses.';
  const at = Date.parse(`${receipt.time}Z`);
  if (at > now + FUTURE_SLACK_MS) return 'The receipt is dated in the future.';
  if (at < now - maxAgeDays * DAY_MS - FUTURE_SLACK_MS) return `The receipt is older than ${maxAgeDays} days.`;
  return undefined;
}

/**
 * The default implementation's handlers: anonymous cards with their
 * diversified key, category groups and favourites, promo codes and receipts,
 * on a {@link LoyaltyStore}. Receipts earn `bonusRateBasisPoints` of their sum
 * (purchases only, n=1), once; promo codes credit their own bonus.
 */
export function createStoreHandlers(
  store: LoyaltyStore,
  options: ResolvedLoyaltyProgramOptions,
  clock: () => number = Date.now,
): LoyaltyHandlers {
  const cardKey = (cardNumber: string) => deriveCardKey(options.partnerKey, cardNumber, options.algorythm);
  const requireCard = async (cardNumber: string) => {
    if (!(await store.card(cardNumber))) throw new LoyaltyError('CARD_NOT_FOUND', ['cardNumber: no such card']);
  };
  return {
    async issueAnonymousCard({ requestId }) {
      const { cardNumber } = await store.issueCard(
        requestId,
        () => newCardNumber(options.cardNumberPrefix),
        new Date(clock()),
      );
      return options.scheme === 'card-bound' ? { cardNumber, cardKey: cardKey(cardNumber) } : { cardNumber };
    },
    async listCategories({ cardNumber }) {
      await requireCard(cardNumber);
      return { groups: await store.listGroups() };
    },
    async getFavoriteCategories({ cardNumber }) {
      return { favorites: await store.favorites(cardNumber) };
    },
    async setFavoriteCategories({ cardNumber, favorites }) {
      return { favorites: await store.setFavorites(cardNumber, favorites) };
    },
    async sendPromoCode({ cardNumber, code }) {
      const outcome = await store.redeemPromoCode(cardNumber, code, new Date(clock()));
      if (outcome.result === 'APPLIED') {
        return {
          result: 'APPLIED',
          bonusAmount: outcome.bonusAmount ?? 0,
          message: `Promo code applied: ${formatAmount(outcome.bonusAmount ?? 0)} bonus credited.`,
        };
      }
      return { result: outcome.result, message: PROMO_MESSAGES[outcome.result] };
    },
    async sendReceiptQr({ cardNumber, receipt }): Promise<ReceiptQrResponse> {
      const now = clock();
      const why = ineligible(receipt, now, options.receiptMaxAgeDays);
      if (why !== undefined) {
        await requireCard(cardNumber);
        return { result: 'INVALID', message: why };
      }
      const outcome = await store.acceptReceipt(
        cardNumber,
        receipt,
        receiptBonus(receipt.sum, options.bonusRateBasisPoints),
        new Date(now),
      );
      switch (outcome.result) {
        case 'ACCEPTED':
          return {
            result: 'ACCEPTED',
            bonusAmount: outcome.bonusAmount,
            message: `Receipt accepted: ${formatAmount(outcome.bonusAmount)} bonus credited.`,
          };
        case 'DUPLICATE':
          return { result: 'DUPLICATE', message: 'This receipt has already been sent.' };
        case 'FISCAL_SIGN_MISMATCH':
          return { result: 'INVALID', message: 'The fiscal sign does not match the registered receipt.' };
      }
    },
  };
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** True for a failure to reach the database (not a bug): PostgreSQL connection and shutdown classes, socket errors. */
export function isStoreUnavailable(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined) return state.startsWith('08') || state.startsWith('57P') || state === '53300';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/**
 * Answers 503 `SERVICE_UNAVAILABLE` (the wallet may retry) when the store cannot
 * be reached, instead of a 500; other failures pass through unchanged.
 */
export function withStoreUnavailable(handlers: LoyaltyHandlers): LoyaltyHandlers {
  const wrapped = {} as Record<keyof LoyaltyHandlers, unknown>;
  for (const [name, handler] of Object.entries(handlers) as Array<
    [keyof LoyaltyHandlers, (input: never, ctx: never) => Promise<unknown>]
  >) {
    wrapped[name] = async (input: never, ctx: never) => {
      try {
        return await handler(input, ctx);
      } catch (error) {
        if (isStoreUnavailable(error))
          throw new LoyaltyError('SERVICE_UNAVAILABLE', ['The loyalty store is unavailable; retry later'], {
            cause: error,
          });
        throw error;
      }
    };
  }
  return wrapped as unknown as LoyaltyHandlers;
}

function formatAmount(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}
