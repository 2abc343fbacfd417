import type { Queryable } from '../../db/index.js';

/** Who made an audited call. */
export interface AuditActor {
  kind: 'till' | 'backOffice' | 'console';
  id: string;
}

/** Money-moving intents, each audited. */
export type AuditAction = 'start' | 'checkout' | 'cancel' | 'abandon' | 'retry' | 'rescan' | 'refund' | 'receipt';

/** One audited call as written. */
export interface AuditRecord {
  actor: AuditActor;
  /** The caller's address, as the transport saw it; null when it has none (an in-process call). */
  address: string | null;
  action: AuditAction;
  tillId: string;
  paymentId: string | null;
  refundId: string | null;
  /** Kopecks the action concerns (the payment's total, the refund's amount); null when not known. */
  amount: number | null;
  /** `ok`, or the refusal's stable code. */
  outcome: string;
  requestId: string | null;
}

/** One row of the log: the record, its number and time. */
export interface AuditEntry extends AuditRecord {
  seq: number;
  /** RFC 3339. */
  at: string;
}

/** Which entries to read: in [from, to), of a till or payment, after `afterSeq`, at most `limit`. */
export interface AuditQuery {
  from?: string;
  to?: string;
  tillId?: string;
  paymentId?: string;
  afterSeq?: number;
  limit: number;
}

type Row = {
  seq: number;
  at: Date;
  actor_kind: AuditActor['kind'];
  actor_id: string;
  address: string | null;
  action: AuditAction;
  till_id: string;
  payment_id: string | null;
  refund_id: string | null;
  amount: number | null;
  outcome: string;
  request_id: string | null;
};

/** Appends to and reads `cashdesk_audit` (see auditMigrations: the table refuses changes). */
export class AuditLog {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** Appends one record. */
  async append(record: AuditRecord): Promise<void> {
    await this.#db.query(
      `INSERT INTO cashdesk_audit (actor_kind, actor_id, address, action, till_id, payment_id, refund_id, amount,
        outcome, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        record.actor.kind,
        record.actor.id,
        record.address,
        record.action,
        record.tillId,
        record.paymentId,
        record.refundId,
        record.amount,
        record.outcome,
        record.requestId,
      ],
    );
  }

  /** Deletes the entries older than `days` (at least 1), the one DELETE the table's trigger lets through. */
  async prune(days: number): Promise<number> {
    const { rows } = await this.#db.query<{ n: string | number }>('SELECT cashdesk_audit_prune($1::int) AS n', [days]);
    return Number(rows[0]?.n ?? 0);
  }

  /** Entries in `seq` order. */
  async read(query: AuditQuery): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.from !== undefined) where.push(`at >= ${param(query.from)}::timestamptz`);
    if (query.to !== undefined) where.push(`at < ${param(query.to)}::timestamptz`);
    if (query.tillId !== undefined) where.push(`till_id = ${param(query.tillId)}`);
    if (query.paymentId !== undefined) where.push(`payment_id = ${param(query.paymentId)}`);
    if (query.afterSeq !== undefined) where.push(`seq > ${param(query.afterSeq)}`);
    const { rows } = await this.#db.query<Row>(
      `SELECT * FROM cashdesk_audit ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY seq LIMIT ${param(query.limit)}`,
      params,
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      at: new Date(row.at).toISOString(),
      actor: { kind: row.actor_kind, id: row.actor_id },
      address: row.address,
      action: row.action,
      tillId: row.till_id,
      paymentId: row.payment_id,
      refundId: row.refund_id,
      amount: row.amount === null ? null : Number(row.amount),
      outcome: row.outcome,
      requestId: row.request_id,
    }));
  }
}
