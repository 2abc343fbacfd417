import type { Migration } from '../../db/index.js';

/**
 * The Loyalty driver's tables (module `loyalty-driver`): the merchant server
 * it calls (one row), and the cards it was issued, kept with their keys as the
 * wallet app keeps them, so the simulator can draw their barcodes.
 */
export const loyaltyDriverMigrations: readonly Migration[] = [
  {
    id: '001-loyalty-driver',
    sql: `
CREATE TABLE loyalty_driver_target (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  url TEXT NOT NULL,
  login TEXT NOT NULL,
  password TEXT NOT NULL,
  barcode JSONB NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE loyalty_driver_cards (
  card_number TEXT PRIMARY KEY,
  card_key TEXT NOT NULL,
  request_id TEXT NOT NULL,
  target_url TEXT NOT NULL,
  issued_at TIMESTAMPTZ NOT NULL
)`,
  },
  {
    // A merchant under rfc6238 issues cards without a key.
    id: '002-cards-without-key',
    sql: 'ALTER TABLE loyalty_driver_cards ALTER COLUMN card_key DROP NOT NULL',
  },
];
