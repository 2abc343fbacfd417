import { SQLSTATE, sqlState, type Database, type Queryable } from '../db/index.js';
import type { CategoryGroup, FavoriteSelection, FiscalReceipt } from '../contracts/loyalty/index.js';
import { LoyaltyError } from '../loyalty/errors.js';
import { lockCard, notFound } from './card-lock.js';
import {
  addPromoCodeIfMissing,
  putPromoCode,
  redeemPromoCode,
  type PromoCodeInput,
  type PromoOutcome,
} from './promo-codes.js';
import { acceptReceipt, type ReceiptOutcome } from './receipts.js';

/** A category group as the merchant sets it up. */
export interface CategoryGroupInput extends CategoryGroup {
  /** Order in the list (ascending). Default 0, then by groupId. */
  position?: number;
}

/** A card's record. */
export interface CardRecord {
  cardNumber: string;
  balance: number;
  issuedAt: Date;
}

const MAX_ATTEMPTS = 5;

/**
 * The default implementation's persistence, on the kit's database (PGlite or
 * PostgreSQL). Every change that must hold together (a redemption and its
 * bonus, a receipt and its bonus, a whole favourites selection) is one
 * transaction; uniqueness (requestId, a receipt, a card's use of a code) is
 * the database's, so it holds across processes too.
 */
export class LoyaltyStore {
  constructor(private readonly db: Database) {}

  /**
   * The card issued for `requestId`, issuing one with `newNumber()` if there is none.
   * Concurrent calls with one requestId get the same card (the unique index decides).
   */
  async issueCard(
    requestId: string,
    newNumber: () => string,
    now: Date,
  ): Promise<{ cardNumber: string; created: boolean }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const inserted = await this.db.query<{ card_number: string }>(
          `INSERT INTO loyalty_cards (card_number, request_id, issued_at) VALUES ($1, $2, $3)
           ON CONFLICT (request_id) DO NOTHING RETURNING card_number`,
          [newNumber(), requestId, now],
        );
        if (inserted.rows[0]) return { cardNumber: inserted.rows[0].card_number, created: true };
        const existing = await this.db.query<{ card_number: string }>(
          'SELECT card_number FROM loyalty_cards WHERE request_id = $1',
          [requestId],
        );
        if (existing.rows[0]) return { cardNumber: existing.rows[0].card_number, created: false };
      } catch (error) {
        // A random number already taken (card_number is the primary key): draw another.
        if (sqlState(error) !== SQLSTATE.uniqueViolation || attempt >= MAX_ATTEMPTS) throw error;
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error('card issue did not settle');
    }
  }

  /** A card, or undefined. */
  async card(cardNumber: string): Promise<CardRecord | undefined> {
    const { rows } = await this.db.query<{ card_number: string; balance: number; issued_at: Date }>(
      'SELECT card_number, balance, issued_at FROM loyalty_cards WHERE card_number = $1',
      [cardNumber],
    );
    const row = rows[0];
    return row && { cardNumber: row.card_number, balance: Number(row.balance), issuedAt: row.issued_at };
  }

  /** The latest cards, newest first (the merchant console's list). */
  async recentCards(limit: number): Promise<CardRecord[]> {
    const { rows } = await this.db.query<{ card_number: string; balance: number; issued_at: Date }>(
      'SELECT card_number, balance, issued_at FROM loyalty_cards ORDER BY issued_at DESC, card_number LIMIT $1',
      [limit],
    );
    return rows.map((row) => ({ cardNumber: row.card_number, balance: Number(row.balance), issuedAt: row.issued_at }));
  }

  /** The latest accepted receipts and promo code uses, newest first (the merchant console's list). */
  async recentCredits(limit: number): Promise<
    Array<{
      kind: 'receipt' | 'promo';
      cardNumber: string;
      what: string;
      sum: number | null;
      bonusAmount: number;
      at: Date;
    }>
  > {
    const { rows } = await this.db.query<{
      kind: 'receipt' | 'promo';
      card_number: string;
      what: string;
      sum: string | null;
      bonus_amount: string;
      at: Date;
    }>(
      `SELECT * FROM (
         SELECT 'receipt' AS kind, card_number, fiscal_drive_number || '/' || document_number AS what, sum,
           bonus_amount, accepted_at AS at FROM loyalty_receipts
         UNION ALL
         SELECT 'promo', card_number, code, NULL, bonus_amount, redeemed_at FROM loyalty_promo_redemptions
       ) credits ORDER BY at DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      kind: r.kind,
      cardNumber: r.card_number,
      what: r.what,
      sum: r.sum === null ? null : Number(r.sum),
      bonusAmount: Number(r.bonus_amount),
      at: r.at,
    }));
  }

  /** Creates or replaces a category group and its categories (favourites of removed categories go with them). */
  async putCategoryGroup(group: CategoryGroupInput): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO loyalty_category_groups (group_id, name, max_selected, position) VALUES ($1, $2, $3, $4)
         ON CONFLICT (group_id) DO UPDATE SET name = EXCLUDED.name, max_selected = EXCLUDED.max_selected,
           position = EXCLUDED.position`,
        [group.groupId, group.name, group.maxSelected, group.position ?? 0],
      );
      const ids = group.categories.map((c) => c.categoryId);
      await tx.query('DELETE FROM loyalty_categories WHERE group_id = $1 AND NOT (category_id = ANY($2::text[]))', [
        group.groupId,
        ids,
      ]);
      for (const [position, category] of group.categories.entries()) {
        await tx.query(
          `INSERT INTO loyalty_categories (group_id, category_id, name, position) VALUES ($1, $2, $3, $4)
           ON CONFLICT (group_id, category_id) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position`,
          [group.groupId, category.categoryId, category.name, position],
        );
      }
    });
  }

  /** Every group with its categories, in order. */
  async listGroups(q: Queryable = this.db): Promise<CategoryGroup[]> {
    const { rows } = await q.query<{
      group_id: string;
      group_name: string;
      max_selected: number;
      category_id: string | null;
      category_name: string | null;
    }>(
      `SELECT g.group_id, g.name AS group_name, g.max_selected, c.category_id, c.name AS category_name
       FROM loyalty_category_groups g LEFT JOIN loyalty_categories c ON c.group_id = g.group_id
       ORDER BY g.position, g.group_id, c.position, c.category_id`,
    );
    const groups = new Map<string, CategoryGroup>();
    for (const row of rows) {
      let group = groups.get(row.group_id);
      if (!group) {
        group = { groupId: row.group_id, name: row.group_name, maxSelected: row.max_selected, categories: [] };
        groups.set(row.group_id, group);
      }
      if (row.category_id !== null)
        group.categories.push({ categoryId: row.category_id, name: row.category_name ?? '' });
    }
    return [...groups.values()];
  }

  /** A card's selection (groups with something chosen, in list order); CARD_NOT_FOUND for an unknown card. */
  async favorites(cardNumber: string, q: Queryable = this.db): Promise<FavoriteSelection[]> {
    const { rows } = await q.query<{ group_id: string | null; category_id: string | null }>(
      `SELECT f.group_id, f.category_id FROM loyalty_cards k
       LEFT JOIN loyalty_favorites f ON f.card_number = k.card_number
       LEFT JOIN loyalty_category_groups g ON g.group_id = f.group_id
       LEFT JOIN loyalty_categories c ON c.group_id = f.group_id AND c.category_id = f.category_id
       WHERE k.card_number = $1 ORDER BY g.position, g.group_id, c.position, c.category_id`,
      [cardNumber],
    );
    if (rows.length === 0) throw notFound();
    const selection = new Map<string, string[]>();
    for (const row of rows) {
      if (row.group_id === null || row.category_id === null) continue;
      const list = selection.get(row.group_id) ?? [];
      list.push(row.category_id);
      selection.set(row.group_id, list);
    }
    return [...selection].map(([groupId, categoryIds]) => ({ groupId, categoryIds }));
  }

  /**
   * Replaces a card's selection after checking it against the list: each
   * unknown group or category is an UNKNOWN_CATEGORY line, each group over its
   * maxSelected a TOO_MANY_FAVORITES line; nothing is stored when refused.
   */
  async setFavorites(cardNumber: string, favorites: readonly FavoriteSelection[]): Promise<FavoriteSelection[]> {
    return this.db.transaction(async (tx) => {
      await lockCard(tx, cardNumber);
      const groups = new Map((await this.listGroups(tx)).map((g) => [g.groupId, g]));
      const unknown: string[] = [];
      const tooMany: string[] = [];
      favorites.forEach((selection, i) => {
        const group = groups.get(selection.groupId);
        if (!group) {
          unknown.push(`favorites.${i}.groupId: no such group '${selection.groupId}'`);
          return;
        }
        const known = new Set(group.categories.map((c) => c.categoryId));
        selection.categoryIds.forEach((id, j) => {
          if (!known.has(id))
            unknown.push(`favorites.${i}.categoryIds.${j}: no such category '${id}' in group '${group.groupId}'`);
        });
        if (selection.categoryIds.length > group.maxSelected) {
          tooMany.push(
            `favorites.${i}.categoryIds: at most ${group.maxSelected} may be chosen in group '${group.groupId}'`,
          );
        }
      });
      if (unknown.length > 0) throw new LoyaltyError('UNKNOWN_CATEGORY', unknown);
      if (tooMany.length > 0) throw new LoyaltyError('TOO_MANY_FAVORITES', tooMany);
      await tx.query('DELETE FROM loyalty_favorites WHERE card_number = $1', [cardNumber]);
      for (const selection of favorites) {
        for (const categoryId of selection.categoryIds) {
          await tx.query('INSERT INTO loyalty_favorites (card_number, group_id, category_id) VALUES ($1, $2, $3)', [
            cardNumber,
            selection.groupId,
            categoryId,
          ]);
        }
      }
      return this.favorites(cardNumber, tx);
    });
  }

  /** Creates a promo code, or replaces its terms (uses so far are kept). */
  async putPromoCode(promo: PromoCodeInput): Promise<void> {
    return putPromoCode(this.db, promo);
  }

  /** Creates a promo code unless one with that code exists; true when created. */
  async addPromoCodeIfMissing(promo: PromoCodeInput): Promise<boolean> {
    return addPromoCodeIfMissing(this.db, promo);
  }

  /**
   * Uses a promo code for a card: checks existence, expiry, the card's earlier use and the uses left, then credits the
   * bonus.
   */
  async redeemPromoCode(cardNumber: string, code: string, now: Date): Promise<PromoOutcome> {
    return redeemPromoCode(this.db, cardNumber, code, now);
  }

  /**
   * Records a receipt once (by fiscal drive and document number) and credits
   * `bonusAmount`. The same receipt again is DUPLICATE whichever card sends it;
   * the same numbers with another fiscal sign are FISCAL_SIGN_MISMATCH.
   */
  async acceptReceipt(
    cardNumber: string,
    receipt: FiscalReceipt,
    bonusAmount: number,
    now: Date,
  ): Promise<ReceiptOutcome> {
    return acceptReceipt(this.db, cardNumber, receipt, bonusAmount, now);
  }
}
