import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, type AuditRecord } from '../../../../src/cashdesk/back-office/audit-log.js';
import { auditMigrations } from '../../../../src/cashdesk/back-office/audit-migrations.js';
import { migrate, type Database } from '../../../../src/db/index.js';
import { databaseCases } from '../../../support/databases.js';

const record = (over: Partial<AuditRecord> = {}): AuditRecord => ({
  actor: { kind: 'till', id: 'north-1' },
  address: '127.0.0.1',
  action: 'refund',
  tillId: 'north-1',
  paymentId: 'n-1',
  refundId: 'rf-1',
  amount: 1_000,
  outcome: 'ok',
  requestId: 'req-1',
  ...over,
});

describe.each(databaseCases('the audit log'))('AuditLog on $name', (dbCase) => {
  let db: Database;
  let log: AuditLog;
  beforeAll(async () => {
    db = await dbCase.open();
    await migrate(db, 'cashdesk-audit', auditMigrations);
    log = new AuditLog(db);
    await log.append(record());
    await log.append(record({ actor: { kind: 'backOffice', id: 'erp' }, paymentId: 'n-2', outcome: 'SCOPE_MISSING' }));
    await log.append(record({ tillId: 'south-1', paymentId: 's-1', action: 'start', refundId: null }));
  });
  afterAll(async () => {
    await db?.close();
  });

  it('reads the entries back in seq order with their actor and outcome', async () => {
    const entries = await log.read({ limit: 10 });
    expect(entries.map((e) => [e.seq, e.actor.kind, e.action, e.paymentId, e.outcome])).toEqual([
      [1, 'till', 'refund', 'n-1', 'ok'],
      [2, 'backOffice', 'refund', 'n-2', 'SCOPE_MISSING'],
      [3, 'till', 'start', 's-1', 'ok'],
    ]);
    expect(entries[0]).toMatchObject({ address: '127.0.0.1', amount: 1_000, refundId: 'rf-1', requestId: 'req-1' });
    expect(Date.parse(entries[0]!.at)).not.toBeNaN();
  });

  it('filters by till, payment and after a seq', async () => {
    expect((await log.read({ tillId: 'south-1', limit: 10 })).map((e) => e.seq)).toEqual([3]);
    expect((await log.read({ paymentId: 'n-2', limit: 10 })).map((e) => e.seq)).toEqual([2]);
    expect((await log.read({ afterSeq: 1, limit: 1 })).map((e) => e.seq)).toEqual([2]);
  });

  it('filters by time', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(await log.read({ from: future, limit: 10 })).toEqual([]);
    expect(await log.read({ to: future, limit: 10 })).toHaveLength(3);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the table', async () => {
    await expect(db.query("UPDATE cashdesk_audit SET outcome = 'ok' WHERE seq = 2")).rejects.toMatchObject({
      code: '42501',
    });
    await expect(db.query('DELETE FROM cashdesk_audit WHERE seq = 1')).rejects.toMatchObject({ code: '42501' });
    await expect(db.query('TRUNCATE cashdesk_audit')).rejects.toMatchObject({ code: '42501' });
    expect((await log.read({ limit: 10 })).map((e) => e.outcome)).toEqual(['ok', 'SCOPE_MISSING', 'ok']);
  });

  it('prunes only the rows older than the retention, and still refuses an ordinary DELETE of them', async () => {
    await db.query(
      `INSERT INTO cashdesk_audit (at, actor_kind, actor_id, action, till_id, outcome)
       VALUES (now() - interval '40 days', 'till', 'north-1', 'start', 'north-1', 'ok')`,
    );
    const old = "DELETE FROM cashdesk_audit WHERE at < now() - interval '30 days'";
    await expect(db.query(old)).rejects.toMatchObject({ code: '42501' });
    await expect(
      db.query("UPDATE cashdesk_audit SET outcome = 'x' WHERE at < now() - interval '30 days'"),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(log.prune(0)).rejects.toMatchObject({ code: '22023' });
    expect(await log.prune(30)).toBe(1);
    expect(await log.read({ limit: 10 })).toHaveLength(3);
    // The bound lived in the prune's own transaction: the next DELETE is refused again.
    await expect(db.query('DELETE FROM cashdesk_audit')).rejects.toMatchObject({ code: '42501' });
  });
});
