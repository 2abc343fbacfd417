import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import type { PaymentRecord } from '../../../../src/cashdesk/payments/record.js';
import { PaymentStore } from '../../../../src/cashdesk/payments/store.js';
import { migrate, openDatabase, type Database } from '../../../../src/db/index.js';
import { uniqueSchema } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';

const cases = [
  { name: 'PGlite', open: () => openDatabase(), drop: async () => {} },
  ...(haveService('DATABASE_URL', DATABASE_URL, 'payment store on PostgreSQL') ? [(() => {
    const schema = uniqueSchema('paystore');
    return {
      name: 'PostgreSQL', open: () => openDatabase({ url: DATABASE_URL!, schema }),
      drop: async () => {
        const db = await openDatabase({ url: DATABASE_URL! });
        await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.close());
      },
    };
  })()] : []),
];

function record(paymentId: string, phase: PaymentRecord['view']['phase'] = 'checking', tillId = 'till-1'): PaymentRecord {
  const basket = { items: [{ name: 'Кофе', article: 'C-1', measure: 'PIECE' as const, quantity: 1, price: 15_000 }], discountAmount: 0 };
  return {
    tillId, paymentId, receiptSent: false, createdAt: new Date('2026-11-24T10:00:00.000Z'), cardNumber: '4000123412341234',
    snapshot: { phase, stage: 'availability', requestId: `req-${paymentId}`, cardSession: 'AB12CD34', basket, providers: [], walletPayIsDefault: true, left: [] },
    view: { paymentId, phase, walletPayIsDefault: true, providers: [], totalAmount: 15_000, receiptSent: false, updatedAt: '2026-11-24T10:00:01.000Z' },
  };
}

describe.each(cases)('PaymentStore on $name: writes of one turn in one statement', ({ open, drop }) => {
  let db: Database;
  let store: PaymentStore;
  const statements: string[] = [];
  beforeAll(async () => {
    db = await open();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    // Counts the statements the store sends.
    const counting: Database = { ...db, kind: db.kind, exec: (sql) => db.exec(sql), transaction: (fn) => db.transaction(fn), close: () => db.close(),
      query: (sql, params) => { statements.push(sql.trim().split(/\s+/)[0]!); return db.query(sql, params); } };
    store = new PaymentStore(counting);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it('inserts the payments started in one turn with one statement; a paymentId twice in it is inserted once', async () => {
    statements.length = 0;
    const results = await Promise.all([store.insert(record('a')), store.insert(record('b')), store.insert(record('a')), store.insert(record('a', 'checking', 'till-2'))]);
    expect(results).toEqual([true, true, false, true]);
    expect(statements).toEqual(['INSERT']);
    expect(await store.insert(record('b'))).toBe(false);
    expect(await store.find('till-1', 'a')).toMatchObject({ paymentId: 'a', cardNumber: '4000123412341234', snapshot: record('a').snapshot, view: record('a').view });
  });

  it('writes the payments saved in one turn with one statement, the later of two writes of one payment holding', async () => {
    await Promise.all([store.insert(record('c')), store.insert(record('d'))]);
    statements.length = 0;
    await Promise.all([store.save(record('c', 'checkout')), store.save(record('d', 'pending')), store.save(record('c', 'pending'))]);
    expect(statements).toEqual(['UPDATE']);
    expect((await store.find('till-1', 'c'))?.view.phase).toBe('pending');
    expect((await store.find('till-1', 'd'))?.snapshot.phase).toBe('pending');
    await store.save(record('d', 'abandoned'));
    expect(await store.openOf('till-1')).not.toContainEqual(expect.objectContaining({ paymentId: 'd' }));
  });

  it('fails only the write the database refuses when a batch fails', async () => {
    await Promise.all([store.insert(record('e')), store.insert(record('f'))]);
    const bad = record('f', 'pending');
    bad.snapshot = { ...bad.snapshot, cardSession: 'NUL\u0000' }; // no JSON text with U+0000 is accepted as jsonb
    const [good, refused] = await Promise.allSettled([store.save(record('e', 'pending')), store.save(bad)]);
    expect(good.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect((await store.find('till-1', 'e'))?.view.phase).toBe('pending');
    expect((await store.find('till-1', 'f'))?.view.phase).toBe('checking');
  });
});
