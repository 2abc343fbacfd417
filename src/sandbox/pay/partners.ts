import type { PasswordScheme } from '../../contracts/barcode.js';
import { generateWebhookSecret } from '../../webhooks/secret.js';
import type { Queryable } from '../../db/index.js';
import { tokenKeyOf } from './token.js';
import { payRefusal } from './pay-refusals.js';

/** The barcode layout of a partner's verifier (document section 2.1, without the key). */
export interface BarcodeLayout {
  algorythm: 'HMACSHA256' | 'HMACSHA1';
  passLength: number;
  prefix: string;
  interval: number;
  cardSessionLength: number;
  delimeter: string;
}

/** The demo layout; a partner created without `layout` gets it. */
export const DEFAULT_LAYOUT: BarcodeLayout = {
  algorythm: 'HMACSHA256',
  passLength: 8,
  prefix: 'CM',
  interval: 30,
  cardSessionLength: 8,
  delimeter: ';',
};

/** A merchant known to the sandbox: its key (to check tokens, draw barcodes), its scheme and webhook target. */
export interface Partner {
  partnerId: string;
  keyHex: string;
  tokenKey: Buffer;
  webhookUrl: string | null;
  webhookSecret: string;
  layout: BarcodeLayout;
  /** How the partner's barcodes are drawn (the README's Barcodes); the merchant's verifier must say the same. */
  scheme: PasswordScheme;
}

/** What creating or updating a partner takes. */
export interface PartnerInput {
  partnerId: string;
  key: string;
  webhookUrl?: string | null;
  webhookSecret?: string;
  layout?: BarcodeLayout;
  /** Default for a new partner: rfc6238; an update without it keeps the stored one. */
  scheme?: PasswordScheme;
}

function fromRow(row: Record<string, unknown>): Partner {
  const keyHex = String(row.key_hex);
  return {
    partnerId: String(row.partner_id),
    keyHex,
    tokenKey: tokenKeyOf(keyHex),
    webhookUrl: (row.webhook_url as string | null) ?? null,
    webhookSecret: String(row.webhook_secret),
    layout: row.layout as BarcodeLayout,
    scheme: row.scheme as PasswordScheme,
  };
}

/**
 * Creates the partner or updates it. Fields not given keep their stored value
 * (a new partner gets a generated `whsec_` secret and the demo layout).
 */
export async function upsertPartner(db: Queryable, input: PartnerInput, now: Date): Promise<Partner> {
  const { rows } = await db.query<Record<string, unknown>>(
    `INSERT INTO pay_partners AS p (partner_id, key_hex, webhook_url, webhook_secret, layout, created_at,
      updated_at, scheme)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6, COALESCE($10, 'rfc6238'))
     ON CONFLICT (partner_id) DO UPDATE SET key_hex = EXCLUDED.key_hex, scheme = COALESCE($10, p.scheme),
       webhook_url = CASE WHEN $7 THEN EXCLUDED.webhook_url ELSE p.webhook_url END,
       webhook_secret = CASE WHEN $8 THEN EXCLUDED.webhook_secret ELSE p.webhook_secret END,
       layout = CASE WHEN $9 THEN EXCLUDED.layout ELSE p.layout END,
       updated_at = EXCLUDED.updated_at
     RETURNING *`,
    [
      input.partnerId,
      input.key.toLowerCase(),
      input.webhookUrl ?? null,
      input.webhookSecret ?? generateWebhookSecret(),
      JSON.stringify(input.layout ?? DEFAULT_LAYOUT),
      now,
      input.webhookUrl !== undefined,
      input.webhookSecret !== undefined,
      input.layout !== undefined,
      input.scheme ?? null,
    ],
  );
  return fromRow(rows[0]!);
}

/** The partner with this id, if any. */
export async function findPartner(db: Queryable, partnerId: string): Promise<Partner | undefined> {
  const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM pay_partners WHERE partner_id = $1', [
    partnerId,
  ]);
  return rows[0] === undefined ? undefined : fromRow(rows[0]);
}

/**
 * The partner a token or a simulator call means: the one named, or, when none
 * is named, the only partner there is (a sandbox usually serves one).
 */
export async function resolvePartner(db: Queryable, partnerId: string | undefined): Promise<Partner | undefined> {
  if (partnerId !== undefined) return findPartner(db, partnerId);
  const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM pay_partners ORDER BY partner_id LIMIT 2');
  return rows.length === 1 ? fromRow(rows[0]!) : undefined;
}

/** Like {@link resolvePartner}, for the simulator: 404 with a hint when there is no such (or no single) partner. */
export async function requirePartner(db: Queryable, partnerId: string | undefined): Promise<Partner> {
  const partner = await resolvePartner(db, partnerId);
  if (partner !== undefined) return partner;
  throw payRefusal('NOT_FOUND', [
    partnerId === undefined
      ? 'partnerId: required when the sandbox knows no partner or several (create one with POST /sandbox/partners)'
      : 'partnerId: no such partner',
  ]);
}

/**
 * Partners by id, kept for `ttlMs` (real time): every Pay request and every
 * event needs its partner, and a partner changes rarely. Changes made through
 * this sandbox take effect at once ({@link PartnerCache.forget}); changes made
 * by another sandbox on the same PostgreSQL within `ttlMs`.
 */
export class PartnerCache {
  readonly #entries = new Map<string, { partner: Partner | undefined; until: number }>();
  readonly #ttlMs: number;

  constructor(ttlMs = 1000) {
    this.#ttlMs = ttlMs;
  }

  /** The partner with this id (from the cache while fresh), or undefined. */
  async get(db: Queryable, partnerId: string): Promise<Partner | undefined> {
    const now = performance.now();
    const hit = this.#entries.get(partnerId);
    if (hit !== undefined && hit.until > now) return hit.partner;
    const partner = await findPartner(db, partnerId);
    // Bounded: unknown ids from forged tokens must not grow the map without limit.
    if (this.#entries.size >= 1000) this.#entries.clear();
    this.#entries.set(partnerId, { partner, until: now + this.#ttlMs });
    return partner;
  }

  /** Drops a partner after a change. */
  forget(partnerId: string): void {
    this.#entries.delete(partnerId);
  }
}
