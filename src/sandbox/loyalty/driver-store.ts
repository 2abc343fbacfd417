import type { Database } from '../../db/index.js';
import { demoConfig } from '../../demo.js';
import type { z } from 'zod';
import type { TargetBarcode } from './contract.js';

/** The merchant Loyalty server the sandbox calls. */
export interface DriverTarget {
  url: string;
  login: string;
  password: string;
  barcode: z.infer<typeof TargetBarcode>;
}

/** A card the sandbox was issued. */
export interface DriverCard {
  cardNumber: string;
  /** Absent when the merchant is rfc6238: the app then draws with the partner key. */
  cardKey?: string | undefined;
  requestId: string;
  issuedAt: string;
}

/** The layout and key of the demo verifier: what `loyalty --demo` cards are verified with. */
export const DEMO_BARCODE_LAYOUT: DriverTarget['barcode'] = {
  algorythm: demoConfig.verifier.algorythm,
  passLength: demoConfig.verifier.passLength,
  prefix: demoConfig.verifier.prefix,
  interval: demoConfig.verifier.interval,
  delimeter: demoConfig.verifier.delimeter,
  key: demoConfig.verifier.key,
};

const UPDATE_TARGET =
  'UPDATE SET url = EXCLUDED.url, login = EXCLUDED.login, password = EXCLUDED.password, ' +
  'barcode = EXCLUDED.barcode, updated_at = EXCLUDED.updated_at';

/** The driver's rows: its one target and the cards it holds, as the wallet app would. */
export class DriverStore {
  constructor(private readonly db: Database) {}

  async target(): Promise<DriverTarget | undefined> {
    type Row = { url: string; login: string; password: string; barcode: DriverTarget['barcode'] };
    const { rows } = await this.db.query<Row>(
      'SELECT url, login, password, barcode FROM loyalty_driver_target WHERE id = 1',
    );
    return rows[0] && { url: rows[0].url, login: rows[0].login, password: rows[0].password, barcode: rows[0].barcode };
  }

  /** Sets the target; with `onlyIfMissing`, keeps one already set (demo seeding). */
  async setTarget(target: DriverTarget, now: Date, onlyIfMissing = false): Promise<void> {
    await this.db.query(
      `INSERT INTO loyalty_driver_target (id, url, login, password, barcode, updated_at)
       VALUES (1, $1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (id) DO ${onlyIfMissing ? 'NOTHING' : UPDATE_TARGET}`,
      [target.url, target.login, target.password, JSON.stringify(target.barcode), now],
    );
  }

  async addCard(card: Omit<DriverCard, 'issuedAt'>, targetUrl: string, now: Date): Promise<DriverCard> {
    await this.db.query(
      `INSERT INTO loyalty_driver_cards (card_number, card_key, request_id, target_url, issued_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (card_number) DO UPDATE SET card_key = EXCLUDED.card_key, request_id = EXCLUDED.request_id,
         target_url = EXCLUDED.target_url`,
      [card.cardNumber, card.cardKey ?? null, card.requestId, targetUrl, now],
    );
    const { rows } = await this.db.query<{ issued_at: Date }>(
      'SELECT issued_at FROM loyalty_driver_cards WHERE card_number = $1',
      [card.cardNumber],
    );
    return { ...card, issuedAt: (rows[0]?.issued_at ?? now).toISOString() };
  }

  async card(cardNumber: string): Promise<DriverCard | undefined> {
    return (await this.cards(cardNumber))[0];
  }

  async cards(cardNumber?: string): Promise<DriverCard[]> {
    type Row = { card_number: string; card_key: string | null; request_id: string; issued_at: Date };
    const { rows } = await this.db.query<Row>(
      `SELECT card_number, card_key, request_id, issued_at FROM loyalty_driver_cards
       ${cardNumber === undefined ? '' : 'WHERE card_number = $1'} ORDER BY issued_at DESC, card_number LIMIT 1000`,
      cardNumber === undefined ? [] : [cardNumber],
    );
    return rows.map((r) => ({
      cardNumber: r.card_number,
      ...(r.card_key === null ? {} : { cardKey: r.card_key }),
      requestId: r.request_id,
      issuedAt: r.issued_at.toISOString(),
    }));
  }
}
