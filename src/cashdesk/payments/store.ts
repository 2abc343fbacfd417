import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { TransactionAnswer as TransactionState } from '../../contracts/pay/answers.js';
import type { Queryable } from '../../db/index.js';
import type { AuditRecord } from '../back-office/audit-log.js';
import { AUDIT_INSERT, auditRow } from './intent-audit.js';
import { isOpen, type PaymentRecord } from './record.js';
import { fromRow, keyOf, type PaymentKey, type StoredEvent, type StoredPayment } from './rows.js';
import { TurnBatch } from './turn-batch.js';

/** Largest number of payments `list` answers (most recent first). */
export const LIST_LIMIT = 200;

/** Events kept per payment: a till that reconnects is told those it missed from these. */
export const EVENTS_KEPT = 100;

/** A payment's state to write, under the lease it was claimed with, with the events it tells (numbered). */
export interface PaymentWrite {
  record: PaymentRecord;
  epoch: number;
  /** Whether the payment needs a driver (a call or a result may still come): expired leases of these are adopted. */
  active: boolean;
  /** The payment's events since its last write, each with its sequence number. */
  events: Array<{ seq: number; update: SessionUpdate }>;
  /** Audit records written in the same statement, only if the payment's write is (AUDITED_IN_WRITE). */
  audit?: AuditRecord[];
}

const TTL = (n: number) => `$${n}::bigint * interval '1 millisecond'`;

/**
 * The payment rows (`cashdesk_payments`), their events and the Pay webhook
 * states received. Every write is a whole record under the writer's lease:
 * refused (false) once another instance claimed the payment. A write and the
 * events it tells go in one statement, so what a till is told is always what
 * is stored; the writes of one turn are one statement (each caller's promise
 * settles with its own row's answer).
 */
export class PaymentStore {
  readonly #db: Queryable;
  readonly #owner: string;
  readonly #ttlMs: number;
  readonly #inserts = new TurnBatch<PaymentWrite, boolean>((writes) => this.#insertAll(writes));
  readonly #saves = new TurnBatch<PaymentWrite, boolean>((writes) => this.#saveAll(writes));

  constructor(db: Queryable, lease: { owner: string; ttlMs: number }) {
    this.#db = db;
    this.#owner = lease.owner;
    this.#ttlMs = lease.ttlMs;
  }

  /** Inserts a new payment, leased to this instance (epoch 1); false when the till already has one with this id. */
  insert(write: PaymentWrite): Promise<boolean> {
    return this.#inserts.add(write);
  }

  /** Writes a payment's state and events; false when this instance no longer holds its lease under that epoch. */
  save(write: PaymentWrite): Promise<boolean> {
    return this.#saves.add(write);
  }

  async #insertAll(writes: PaymentWrite[]): Promise<boolean[]> {
    const first = new Map<string, PaymentWrite>();
    for (const w of writes) if (!first.has(keyOf(w.record))) first.set(keyOf(w.record), w);
    const { rows } = await this.#db.query<{ till_id: string; payment_id: string }>(
      `INSERT INTO cashdesk_payments (till_id, payment_id, phase, open, active, card_number, receipt_sent,
        snapshot, view,
         created_at, updated_at, owner, epoch, lease_until)
       SELECT till_id, payment_id, phase, open, active, card_number, receipt_sent, snapshot, view, created_at,
         created_at,
         $2, 1, now() + ${TTL(3)}
       FROM jsonb_to_recordset($1::jsonb) AS r(till_id text, payment_id text, phase text, open boolean, active boolean,
         card_number text, receipt_sent boolean, snapshot jsonb, view jsonb, created_at timestamptz)
       ON CONFLICT (till_id, payment_id) DO NOTHING RETURNING till_id, payment_id`,
      [
        JSON.stringify(
          [...first.values()].map(({ record: r, active }) => ({
            till_id: r.tillId,
            payment_id: r.paymentId,
            phase: r.view.phase,
            open: isOpen(r),
            active,
            card_number: r.cardNumber ?? null,
            receipt_sent: r.receiptSent,
            snapshot: r.snapshot,
            view: r.view,
            created_at: r.createdAt.toISOString(),
          })),
        ),
        this.#owner,
        this.#ttlMs,
      ],
    );
    const inserted = new Set(rows.map((row) => keyOf({ tillId: row.till_id, paymentId: row.payment_id })));
    return writes.map((w) => first.get(keyOf(w.record)) === w && inserted.has(keyOf(w.record)));
  }

  /**
   * One statement for a batch: the fenced updates, their events and audit records, and the pruning of events past
   * those kept. One fails, none is written (each is tried again by its payment).
   */
  async #saveAll(writes: PaymentWrite[]): Promise<boolean[]> {
    // Of two writes of one payment in a batch the later holds; its events are the union (numbers never repeat).
    const last = new Map<string, PaymentWrite>();
    for (const w of writes) {
      const before = last.get(keyOf(w.record));
      const audit = [...(before?.audit ?? []), ...(w.audit ?? [])];
      last.set(keyOf(w.record), before === undefined ? w : { ...w, events: [...before.events, ...w.events], audit });
    }
    // Only a batch with audit records names the audit table (the payments alone have none).
    const audited = [...last.values()].some((w) => (w.audit ?? []).length > 0);
    const { rows } = await this.#db.query<{ till_id: string; payment_id: string; epoch: number }>(
      `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(till_id text, payment_id text, epoch bigint, phase text,
           open boolean, active boolean, receipt_sent boolean, snapshot jsonb, view jsonb, updated_at timestamptz,
           seq bigint, events jsonb, audit jsonb)
       ), u AS (
         UPDATE cashdesk_payments AS p SET phase = r.phase, open = r.open, active = r.active,
           receipt_sent = r.receipt_sent, snapshot = r.snapshot, view = r.view, updated_at = r.updated_at,
           seq = GREATEST(p.seq, r.seq), lease_until = now() + ${TTL(3)}
         FROM r WHERE p.till_id = r.till_id AND p.payment_id = r.payment_id AND p.owner = $2 AND p.epoch = r.epoch
         RETURNING p.till_id, p.payment_id, p.epoch, p.seq, r.events, r.audit
       )${audited ? AUDIT_INSERT : ''}, e AS (
         INSERT INTO cashdesk_payment_events (till_id, payment_id, seq, body)
         SELECT u.till_id, u.payment_id, (x.value ->> 'seq')::bigint, x.value -> 'update'
         FROM u, jsonb_array_elements(u.events) AS x ON CONFLICT DO NOTHING
       ), d AS (
         DELETE FROM cashdesk_payment_events AS ev USING u
         WHERE u.seq > ${EVENTS_KEPT} AND ev.till_id = u.till_id AND ev.payment_id = u.payment_id
           AND ev.seq <= u.seq - ${EVENTS_KEPT}
       )
       SELECT till_id, payment_id, epoch FROM u`,
      [
        JSON.stringify(
          [...last.values()].map(({ record: r, epoch, active, events, audit }) => ({
            till_id: r.tillId,
            payment_id: r.paymentId,
            epoch,
            phase: r.view.phase,
            open: isOpen(r),
            active,
            receipt_sent: r.receiptSent,
            snapshot: r.snapshot,
            view: r.view,
            updated_at: r.view.updatedAt,
            seq: events.reduce((max, e) => Math.max(max, e.seq), 0),
            events,
            audit: (audit ?? []).map(auditRow),
          })),
        ),
        this.#owner,
        this.#ttlMs,
      ],
    );
    const written = new Map(
      rows.map((row) => [keyOf({ tillId: row.till_id, paymentId: row.payment_id }), Number(row.epoch)]),
    );
    return writes.map((w) => written.get(keyOf(w.record)) === w.epoch);
  }

  /** One payment of a till, with its lease. */
  async find(key: PaymentKey): Promise<StoredPayment | undefined> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      'SELECT * FROM cashdesk_payments WHERE till_id = $1 AND payment_id = $2',
      [key.tillId, key.paymentId],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /** A till's payments, most recent first, optionally in one phase. */
  async list(tillId: string, phase?: string): Promise<PaymentRecord[]> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      `SELECT * FROM cashdesk_payments WHERE till_id = $1 AND ($2::text IS NULL OR phase = $2)
       ORDER BY created_at DESC, payment_id LIMIT ${LIST_LIMIT}`,
      [tillId, phase ?? null],
    );
    return rows.map((row) => fromRow(row).record);
  }

  /** A till's open payments, oldest first. */
  async openOf(tillId: string): Promise<StoredPayment[]> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      'SELECT * FROM cashdesk_payments WHERE till_id = $1 AND open ORDER BY created_at, payment_id',
      [tillId],
    );
    return rows.map(fromRow);
  }

  /** The last event number of each open payment of these tills (one indexed read, whatever their number). */
  async openSeqsOf(tillIds: readonly string[]): Promise<Array<PaymentKey & { seq: number }>> {
    if (tillIds.length === 0) return [];
    const { rows } = await this.#db.query<{ till_id: string; payment_id: string; seq: number }>(
      'SELECT till_id, payment_id, seq FROM cashdesk_payments WHERE till_id = ANY($1::text[]) AND open',
      [tillIds],
    );
    return rows.map((row) => ({ tillId: row.till_id, paymentId: row.payment_id, seq: Number(row.seq) }));
  }

  /** A payment's events after `afterSeq`, in order (at most those kept). */
  async eventsOf(key: PaymentKey, afterSeq: number): Promise<StoredEvent[]> {
    const { rows } = await this.#db.query<{ seq: number; body: SessionUpdate }>(
      `SELECT seq, body FROM cashdesk_payment_events WHERE till_id = $1 AND payment_id = $2 AND seq > $3
       ORDER BY seq`,
      [key.tillId, key.paymentId, afterSeq],
    );
    return rows.map((row) => ({ ...key, seq: Number(row.seq), update: row.body }));
  }

  /** The events of a till's payments written since `since` (the database's time), in each payment's order. */
  async eventsOfTill(tillId: string, since: Date): Promise<StoredEvent[]> {
    const { rows } = await this.#db.query<{ payment_id: string; seq: number; body: SessionUpdate }>(
      `SELECT payment_id, seq, body FROM cashdesk_payment_events WHERE till_id = $1 AND at >= $2
       ORDER BY payment_id, seq`,
      [tillId, since.toISOString()],
    );
    return rows.map((row) => ({ tillId, paymentId: row.payment_id, seq: Number(row.seq), update: row.body }));
  }

  /** The database's time now (leases and event times are in it, not in any instance's clock). */
  async now(): Promise<Date> {
    const { rows } = await this.#db.query<{ now: Date }>('SELECT now() AS now');
    return new Date(rows[0]!.now);
  }

  /** Keeps a verified webhook state for whichever instance drives its payment. */
  async saveState(state: TransactionState): Promise<void> {
    await this.#db.query(
      `INSERT INTO cashdesk_pay_states (transaction_id, status, state) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (transaction_id, status) DO UPDATE SET state = EXCLUDED.state`,
      [String(state.transactionId), String(state.status), JSON.stringify(state)],
    );
  }

  /** The webhook states kept for these transactions, oldest first. */
  async statesOf(transactionIds: readonly string[]): Promise<TransactionState[]> {
    if (transactionIds.length === 0) return [];
    const { rows } = await this.#db.query<{ state: TransactionState }>(
      'SELECT state FROM cashdesk_pay_states WHERE transaction_id = ANY($1::text[]) ORDER BY received_at',
      [transactionIds.map(String)],
    );
    return rows.map((row) => row.state);
  }
}
