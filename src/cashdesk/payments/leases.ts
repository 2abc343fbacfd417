import type { Queryable } from '../../db/index.js';
import { fromRow, type PaymentKey, type StoredPayment } from './rows.js';

/** Options of {@link Leases}. */
export interface LeaseOptions {
  /** This instance's id: the `owner` it writes. */
  owner: string;
  /** How long a claim or renewal holds, in ms (the database's clock). */
  ttlMs: number;
  /**
   * Alone on its database (PGlite: one process per data folder): a lease left by
   * an earlier run of this server is taken at once instead of after it expires.
   */
  alone: boolean;
}

/** A lease this instance holds after a renewal: its epoch, and whether another instance asked for the payment. */
export interface HeldLease extends PaymentKey {
  epoch: number;
  wanted: boolean;
}

const TTL = "$2::bigint * interval '1 millisecond'";

/**
 * Ownership of payments by lease with fencing. A payment is driven by the
 * instance named in its row's `owner` while `lease_until` (the database's
 * time) has not passed; every claim bumps `epoch`, and every write of the
 * payment's state names the epoch it was claimed with, so an instance that
 * lost its lease (it stalled, the database was away) can write nothing more.
 * No lock outlives its statement: claims use `FOR UPDATE SKIP LOCKED`.
 */
export class Leases {
  readonly #db: Queryable;
  readonly #options: LeaseOptions;

  constructor(db: Queryable, options: LeaseOptions) {
    this.#db = db;
    this.#options = options;
  }

  /** This instance's id. */
  get owner(): string {
    return this.#options.owner;
  }

  /** The lease length, in ms. */
  get ttlMs(): number {
    return this.#options.ttlMs;
  }

  /**
   * Claims one payment: free, expired (or left by an earlier run, alone), or this instance's own. Under
   * `epoch`, its own lease is only extended (the epoch stays, so its writes under way still hold); without,
   * a lease of its own is taken anew (a payment it no longer drives: a release that failed). Answers the row
   * with its epoch, or undefined while another instance holds it (or there is no such payment).
   */
  async claim(key: PaymentKey, epoch?: number): Promise<StoredPayment | undefined> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      `UPDATE cashdesk_payments SET owner = $1, lease_until = now() + ${TTL},
         epoch = CASE WHEN owner = $1 AND epoch = $6::bigint THEN epoch ELSE epoch + 1 END,
         wanted = CASE WHEN owner = $1 AND epoch = $6::bigint THEN wanted ELSE FALSE END
       WHERE till_id = $3 AND payment_id = $4
         AND (owner IS NULL OR lease_until IS NULL OR lease_until < now() OR $5::boolean
              OR (owner = $1 AND ($6::bigint = -1 OR epoch = $6::bigint)))
       RETURNING *`,
      [this.#options.owner, this.#options.ttlMs, key.tillId, key.paymentId, this.#options.alone, epoch ?? -1],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /**
   * Claims up to `limit` payments that need a driver and have none (their
   * lease expired: the instance died or lost the database), oldest lease first.
   * Rows another instance is claiming at this moment are skipped, not waited for.
   */
  async claimExpired(limit: number): Promise<StoredPayment[]> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      `UPDATE cashdesk_payments AS p SET owner = $1, epoch = p.epoch + 1, lease_until = now() + ${TTL}, wanted = FALSE
       FROM (SELECT till_id, payment_id FROM cashdesk_payments
             WHERE active AND owner IS DISTINCT FROM $1
               AND (lease_until IS NULL OR lease_until < now() OR $3::boolean)
             ORDER BY lease_until NULLS FIRST LIMIT $4 FOR UPDATE SKIP LOCKED) AS c
       WHERE p.till_id = c.till_id AND p.payment_id = c.payment_id
       RETURNING p.*`,
      [this.#options.owner, this.#options.ttlMs, this.#options.alone, limit],
    );
    return rows.map(fromRow);
  }

  /**
   * Ends the expired leases of payments that need no driver (`active` false): an owner killed, or cut off from the
   * database, between a payment's last write and the release of its lease leaves it so, and nothing else would
   * clear it (adoption takes only active ones). The epoch moves on, so that owner, should it come back, writes
   * nothing more. Answers the payments whose lease it ended.
   */
  async endExpired(): Promise<PaymentKey[]> {
    const { rows } = await this.#db.query<{ till_id: string; payment_id: string }>(
      `UPDATE cashdesk_payments SET owner = NULL, lease_until = NULL, wanted = FALSE, epoch = epoch + 1
       WHERE owner IS NOT NULL AND NOT active AND owner IS DISTINCT FROM $1
         AND (lease_until IS NULL OR lease_until < now() OR $2::boolean)
       RETURNING till_id, payment_id`,
      [this.#options.owner, this.#options.alone],
    );
    return rows.map((r) => ({ tillId: r.till_id, paymentId: r.payment_id }));
  }

  /** Extends every lease this instance holds, in one statement; answers what it still holds. */
  async renew(): Promise<HeldLease[]> {
    const { rows } = await this.#db.query<{ till_id: string; payment_id: string; epoch: number; wanted: boolean }>(
      `UPDATE cashdesk_payments SET lease_until = now() + ${TTL} WHERE owner = $1
       RETURNING till_id, payment_id, epoch, wanted`,
      [this.#options.owner, this.#options.ttlMs],
    );
    return rows.map((r) => ({ tillId: r.till_id, paymentId: r.payment_id, epoch: Number(r.epoch), wanted: r.wanted }));
  }

  /**
   * Gives a payment up: at rest (`active` false: nobody needs to drive it until a till's intent), or handed to
   * the instance that wants it (`active` as it stands; undefined keeps the row's). False when it was no longer held.
   */
  async release(key: PaymentKey, epoch: number, active?: boolean): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      `UPDATE cashdesk_payments SET owner = NULL, lease_until = NULL, wanted = FALSE, active = COALESCE($5, active)
       WHERE till_id = $2 AND payment_id = $3 AND owner = $1 AND epoch = $4`,
      [this.#options.owner, key.tillId, key.paymentId, epoch, active ?? null],
    );
    return rowCount > 0;
  }

  /** Asks the payment's owner to hand it over (read at its next renewal, or at once from the hint). */
  async want(key: PaymentKey): Promise<void> {
    await this.#db.query(
      'UPDATE cashdesk_payments SET wanted = TRUE WHERE till_id = $1 AND payment_id = $2 AND owner IS NOT NULL',
      [key.tillId, key.paymentId],
    );
  }

  /** Gives up every lease of this instance (it stops): another instance takes them without waiting for expiry. */
  async releaseAll(): Promise<void> {
    await this.#db.query(
      'UPDATE cashdesk_payments SET owner = NULL, lease_until = NULL, wanted = FALSE WHERE owner = $1',
      [this.#options.owner],
    );
  }
}
