import type { Migration } from '../db/index.js';

/**
 * Tables of the default Loyalty implementation (module `loyalty`). Cards keep
 * no key: the card key is derived from the partner key when it is needed, so
 * no key material rests in the database.
 */
export const loyaltyMigrations: readonly Migration[] = [
  {
    id: '001-loyalty-program',
    sql: `
CREATE TABLE loyalty_cards (
  card_number TEXT PRIMARY KEY,
  request_id TEXT UNIQUE,
  balance BIGINT NOT NULL DEFAULT 0,
  issued_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE loyalty_category_groups (
  group_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  max_selected INTEGER NOT NULL CHECK (max_selected >= 1),
  position INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE loyalty_categories (
  group_id TEXT NOT NULL REFERENCES loyalty_category_groups (group_id) ON DELETE CASCADE,
  category_id TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (group_id, category_id)
);
CREATE TABLE loyalty_favorites (
  card_number TEXT NOT NULL REFERENCES loyalty_cards (card_number) ON DELETE CASCADE,
  group_id TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (card_number, group_id, category_id),
  FOREIGN KEY (group_id, category_id) REFERENCES loyalty_categories (group_id, category_id) ON DELETE CASCADE
);
CREATE TABLE loyalty_promo_codes (
  code TEXT PRIMARY KEY,
  bonus_amount BIGINT NOT NULL CHECK (bonus_amount >= 0),
  expires_at TIMESTAMPTZ,
  max_redemptions INTEGER CHECK (max_redemptions >= 1),
  redemptions INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE loyalty_promo_redemptions (
  code TEXT NOT NULL REFERENCES loyalty_promo_codes (code) ON DELETE CASCADE,
  card_number TEXT NOT NULL REFERENCES loyalty_cards (card_number) ON DELETE CASCADE,
  bonus_amount BIGINT NOT NULL,
  redeemed_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (code, card_number)
);
CREATE TABLE loyalty_receipts (
  fiscal_drive_number TEXT NOT NULL,
  document_number BIGINT NOT NULL,
  fiscal_sign TEXT NOT NULL,
  card_number TEXT NOT NULL REFERENCES loyalty_cards (card_number) ON DELETE CASCADE,
  receipt_time TIMESTAMP NOT NULL,
  sum BIGINT NOT NULL,
  operation_type SMALLINT NOT NULL,
  bonus_amount BIGINT NOT NULL,
  accepted_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (fiscal_drive_number, document_number)
);
CREATE INDEX loyalty_receipts_card ON loyalty_receipts (card_number)`,
  },
];
