import { randomInt } from 'node:crypto';
import { deriveCardKey, generateBarcode } from '../../../adapters/node/primitives.js';
import type { Queryable } from '../../db/index.js';
import type { Partner } from './partners.js';
import { checkCardFields } from './card-fields.js';
import { payRefusal } from './pay-refusals.js';

/** A payment provider as the customer of a card sees it (the provider list of the interface document, section 2.4). */
export interface CardProvider {
  providerId: string;
  name: string;
  available: boolean;
  message?: string | undefined;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** What the wallet app holds for a card, and the barcode it draws now. */
export interface IssuedCard {
  partnerId: string;
  cardNumber: string;
  /** card-bound: the diversified key the app holds; rfc6238: null (the app draws with the partner key). */
  cardKey: string | null;
  cardSession: string | null;
  barcode: string;
  sessionExpiresAt: string | null;
  /** Seconds per password. */
  interval: number;
  /** The time the password was drawn for (RFC 3339). */
  drawnAt: string;
}

/** Options of {@link issueCard}. */
export interface IssueCardInput {
  cardNumber?: string;
  /** The card session to open (a test option). Default: a new random one of the layout's length. */
  cardSession?: string;
  /** Draw a barcode with a card session (wallet payment available). Default true. */
  withSession?: boolean;
  /**
   * Draw with the card's latest session while it is open and unexpired (a new one otherwise). Default false: a new one.
   */
  keepSession?: boolean;
  /** Whether the customer's app has wallet payment as the default method. Default: kept, or true for a new card. */
  walletPayIsDefault?: boolean;
  /** Whether wallet payment is enabled for the customer at all. Default: kept, or true for a new card. */
  payEnabled?: boolean;
  /** The providers this customer is offered. Default: kept, or the module's providers, all available. */
  providers?: CardProvider[];
}

/** A card session of `length` characters of [0-9A-Za-z], unbiased. */
export function newCardSession(length: number): string {
  let session = '';
  for (let i = 0; i < length; i++) session += ALPHANUMERIC[randomInt(62)];
  return session;
}

function newCardNumber(): string {
  let digits = '4000';
  for (let i = 0; i < 12; i++) digits += String(randomInt(10));
  return digits;
}

/**
 * The wallet app issues (or re-reads) a card and draws its barcode in the
 * partner's scheme (the README's Barcodes: TOTP of the partner key, or of a card
 * key diversified from it); a new card session is opened unless `withSession`
 * is false. Runs in the caller's transaction.
 */
export async function issueCard(
  tx: Queryable,
  partner: Partner,
  input: IssueCardInput,
  now: number,
  ttlSeconds: number,
): Promise<IssuedCard> {
  checkCardFields(partner, input);
  const cardNumber = input.cardNumber ?? newCardNumber();
  const cardKey =
    partner.scheme === 'card-bound' ? deriveCardKey(partner.keyHex, cardNumber, partner.layout.algorythm) : null;
  await tx.query(
    `INSERT INTO pay_cards AS c (partner_id, card_number, card_key, wallet_pay_is_default, pay_enabled, providers,
      created_at)
     VALUES ($1, $2, $3, COALESCE($4, TRUE), COALESCE($5, TRUE), $7::jsonb, $6)
     ON CONFLICT (partner_id, card_number) DO UPDATE SET card_key = EXCLUDED.card_key,
       wallet_pay_is_default = COALESCE($4, c.wallet_pay_is_default), pay_enabled = COALESCE($5, c.pay_enabled),
       providers = COALESCE($7::jsonb, c.providers)`,
    [
      partner.partnerId,
      cardNumber,
      cardKey,
      input.walletPayIsDefault ?? null,
      input.payEnabled ?? null,
      new Date(now),
      input.providers === undefined ? null : JSON.stringify(input.providers),
    ],
  );
  let cardSession: string | null = null;
  let expiresAt: Date | null = null;
  if ((input.withSession ?? true) && input.keepSession === true && input.cardSession === undefined) {
    const { rows } = await tx.query<{ card_session: string; expires_at: Date }>(
      `SELECT card_session, expires_at FROM pay_card_sessions WHERE partner_id = $1 AND card_number = $2 AND
        closed_at IS NULL AND expires_at > $3
       ORDER BY issued_at DESC LIMIT 1`,
      [partner.partnerId, cardNumber, new Date(now)],
    );
    if (rows[0] !== undefined) {
      cardSession = rows[0].card_session;
      expiresAt = rows[0].expires_at;
    }
  }
  if ((input.withSession ?? true) && cardSession === null) {
    cardSession = input.cardSession ?? newCardSession(partner.layout.cardSessionLength);
    expiresAt = new Date(now + ttlSeconds * 1000);
    const opened = await tx.query(
      `INSERT INTO pay_card_sessions (partner_id, card_session, card_number, issued_at, expires_at) VALUES ($1, ` +
        `$2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [partner.partnerId, cardSession, cardNumber, new Date(now), expiresAt],
    );
    if (opened.rowCount === 0) throw payRefusal('CARD_SESSION_INVALID', ['cardSession: already issued']);
  }
  const keyed = cardKey === null ? { key: partner.keyHex } : { scheme: 'card-bound' as const, cardKey };
  const barcode = generateBarcode({
    ...partner.layout,
    ...keyed,
    cardNumber,
    cardSession: cardSession ?? undefined,
    at: now,
  });
  return {
    partnerId: partner.partnerId,
    cardNumber,
    cardKey,
    cardSession,
    barcode,
    sessionExpiresAt: expiresAt?.toISOString() ?? null,
    interval: partner.layout.interval,
    drawnAt: new Date(now).toISOString(),
  };
}

/** A card session's stored life. */
export interface CardSessionRecord {
  cardSession: string;
  cardNumber: string;
  issuedAt: Date;
  expiresAt: Date;
  closedAt: Date | null;
  /**
   * When a request for this card session came with a refused token (document section 5); a rescan gives a new session.
   */
  blockedAt: Date | null;
  walletPayIsDefault: boolean;
  payEnabled: boolean;
  /** The card's own provider list, or null for the module's. */
  providers: CardProvider[] | null;
}

const BLOCKED = 'cardSession: blocked after a request with an invalid token; scan the barcode again';

/** The answer to any call with a blocked card session. */
export const blockedProblem = () => payRefusal('CARD_SESSION_INVALID', [BLOCKED]);

/**
 * 409 CARD_SESSION_INVALID when a card session was blocked by a refused token.
 * Checked before a stored answer is repeated: unlike an expired or closed
 * session, a blocked one takes no further call at all, not even a repeat.
 */
export function refuseIfBlocked(session: CardSessionRecord | undefined): void {
  if (session?.blockedAt != null) throw blockedProblem();
}

/** Why a session cannot be used, or undefined when it can. */
export function sessionProblem(session: CardSessionRecord | undefined, now: number): string | undefined {
  if (session === undefined) return 'cardSession: unknown card session; scan the barcode again';
  if (session.blockedAt !== null) return BLOCKED;
  if (session.closedAt !== null) return 'cardSession: closed after a refund; scan the barcode again';
  if (session.expiresAt.getTime() <= now) return 'cardSession: expired; scan the barcode again';
  return undefined;
}

/** Reads a card session (with its card's settings), locking it when `lock` is set. */
export async function findSession(
  tx: Queryable,
  partnerId: string,
  cardSession: string,
  lock = false,
): Promise<CardSessionRecord | undefined> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT s.card_session, s.card_number, s.issued_at, s.expires_at, s.closed_at, s.blocked_at,
      c.wallet_pay_is_default, c.pay_enabled, c.providers
     FROM pay_card_sessions s JOIN pay_cards c ON c.partner_id = s.partner_id AND c.card_number = s.card_number
     WHERE s.partner_id = $1 AND s.card_session = $2${lock ? ' FOR UPDATE OF s' : ''}`,
    [partnerId, cardSession],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    cardSession: String(row.card_session),
    cardNumber: String(row.card_number),
    issuedAt: row.issued_at as Date,
    expiresAt: row.expires_at as Date,
    closedAt: (row.closed_at as Date | null) ?? null,
    blockedAt: (row.blocked_at as Date | null) ?? null,
    walletPayIsDefault: Boolean(row.wallet_pay_is_default),
    payEnabled: Boolean(row.pay_enabled),
    providers: (row.providers as CardProvider[] | null) ?? null,
  };
}

/** A usable card session, or 409 CARD_SESSION_INVALID (document section 7: scan again, new requestId). */
export async function requireSession(
  tx: Queryable,
  partnerId: string,
  cardSession: string,
  now: number,
  lock = false,
): Promise<CardSessionRecord> {
  const session = await findSession(tx, partnerId, cardSession, lock);
  const why = sessionProblem(session, now);
  if (why !== undefined) throw payRefusal('CARD_SESSION_INVALID', [why]);
  return session!;
}

/**
 * Closes a card session (after a refund): the customer scans again for a new transaction (document section 3, rule 2).
 */
export async function closeSession(tx: Queryable, partnerId: string, cardSession: string, now: number): Promise<void> {
  await tx.query(
    'UPDATE pay_card_sessions SET closed_at = $3 WHERE partner_id = $1 AND card_session = $2 AND closed_at IS NULL',
    [partnerId, cardSession, new Date(now)],
  );
}

/**
 * Blocks a card session of a partner: every later call with it answers 409
 * CARD_SESSION_INVALID until the app draws a new barcode (a new session).
 * Answers whether it was open (a second refusal blocks nothing new).
 */
export async function blockSession(
  tx: Queryable,
  partnerId: string,
  cardSession: string,
  now: number,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    'UPDATE pay_card_sessions SET blocked_at = $3 WHERE partner_id = $1 AND card_session = $2 AND blocked_at IS NULL',
    [partnerId, cardSession, new Date(now)],
  );
  return rowCount === 1;
}

/**
 * Like {@link blockSession}, for the card session of one of the partner's transactions (a refused /refund, /cancel or
 * /receipt).
 */
export async function blockSessionOf(
  tx: Queryable,
  partnerId: string,
  transactionId: string,
  now: number,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE pay_card_sessions s SET blocked_at = $3 FROM pay_transactions t
     WHERE t.transaction_id = $2 AND t.partner_id = $1 AND s.partner_id = t.partner_id AND s.card_session =
       t.card_session AND s.blocked_at IS NULL`,
    [partnerId, transactionId, new Date(now)],
  );
  return rowCount === 1;
}

/**
 * Whether a card session is blocked, for a call that names it without needing
 * it open (`/status` by requestId + cardSession). `partnerId` undefined: any
 * partner's (an unsigned `/status`).
 */
export async function isBlocked(tx: Queryable, cardSession: string, partnerId: string | undefined): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM pay_card_sessions WHERE card_session = $1 AND ($2::text IS NULL OR partner_id = $2) AND ' +
      'blocked_at IS NOT NULL LIMIT 1',
    [cardSession, partnerId ?? null],
  );
  return rows.length > 0;
}
