import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import type { PaymentRecord } from '../../../../src/cashdesk/payments/record.js';
import { EVENTS_KEPT, PaymentStore, type PaymentWrite } from '../../../../src/cashdesk/payments/store.js';
import { migrate, openDatabase, type Database } from '../../../../src/db/index.js';
import { uniqueSchema } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';

const cases = [
  { name: 'PGlite', open: () => openDatabase(), drop: async () => {} },
  ...(haveService('DATABASE_URL', DATABASE_URL, 'payment store on PostgreSQL')
    ? [
        (() => {
          const schema = uniqueSchema('paystore');
          return {
            name: 'PostgreSQL',
            open: () => openDatabase({ url: DATABASE_URL!, schema }),
            drop: async () => {
              const db = await openDatabase({ url: DATABASE_URL! });
              await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.close());
            },
          };
        })(),
      ]
    : []),
];

function record(
  paymentId: string,
  phase: PaymentRecord['view']['phase'] = 'checking',
  tillId = 'till-1',
): PaymentRecord {
  const basket = {
    items: [{ name: 'Кофе', article: 'C-1', measure: 'PIECE' as const, quantity: 1, price: 15_000 }],
    discountAmount: 0,
  };
  return {
    tillId,
    paymentId,
    receiptSent: false,
    createdAt: new Date('2026-11-24T10:00:00.000Z'),
    cardNumber: '4000123412341234',
    snapshot: {
      phase,
      stage: 'availability',
      requestId: `req-${paymentId}`,
      cardSession: 'AB12CD34',
      basket,
      providers: [],
      walletPayIsDefault: true,
      left: [],
    },
    view: {
      paymentId,
      phase,
      walletPayIsDefault: true,
      providers: [],
      totalAmount: 15_000,
      receiptSent: false,
      updatedAt: '2026-11-24T10:00:01.000Z',
    },
  };
}

const OWNER = 'instance-a';

/** A record's write under `epoch`, with events numbered from `firstSeq`. */
function write(r: PaymentRecord, epoch = 1, events = 0, firstSeq = 1): PaymentWrite {
  return {
    record: r,
    epoch,
    active: true,
    events: Array.from({ length: events }, (_, i) => ({
      seq: firstSeq + i,
      update: { paymentId: r.paymentId, phase: r.view.phase },
    })),
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
    const counting: Database = {
      ...db,
      kind: db.kind,
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
      query: (sql, params) => {
        statements.push(sql.trim().split(/\s+/)[0]!);
        return db.query(sql, params);
      },
    };
    store = new PaymentStore(counting, { owner: OWNER, ttlMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it(
    'inserts the payments started in one turn with one statement; a ' + 'paymentId twice in it is inserted once',
    async () => {
      statements.length = 0;
      const results = await Promise.all([
        store.insert(write(record('a'))),
        store.insert(write(record('b'))),
        store.insert(write(record('a'))),
        store.insert(write(record('a', 'checking', 'till-2'))),
      ]);
      expect(results).toEqual([true, true, false, true]);
      expect(statements).toEqual(['INSERT']);
      expect(await store.insert(write(record('b')))).toBe(false);
      expect(await store.find({ tillId: 'till-1', paymentId: 'a' })).toMatchObject({
        owner: OWNER,
        epoch: 1,
        seq: 0,
        record: {
          paymentId: 'a',
          cardNumber: '4000123412341234',
          snapshot: record('a').snapshot,
          view: record('a').view,
        },
      });
    },
  );

  it(
    'writes the payments saved in one turn with one statement, the later of ' + 'two writes of one payment holding',
    async () => {
      await Promise.all([store.insert(write(record('c'))), store.insert(write(record('d')))]);
      statements.length = 0;
      await Promise.all([
        store.save(write(record('c', 'checkout'))),
        store.save(write(record('d', 'pending'))),
        store.save(write(record('c', 'pending'))),
      ]);
      expect(statements).toEqual(['WITH']);
      expect((await store.find({ tillId: 'till-1', paymentId: 'c' }))?.record.view.phase).toBe('pending');
      expect((await store.find({ tillId: 'till-1', paymentId: 'd' }))?.record.snapshot.phase).toBe('pending');
      await store.save(write(record('d', 'abandoned')));
      expect((await store.openOf('till-1')).map((p) => p.record.paymentId)).not.toContain('d');
    },
  );

  it('fails only the write the database refuses when a batch fails', async () => {
    await Promise.all([store.insert(write(record('e'))), store.insert(write(record('f')))]);
    const bad = record('f', 'pending');
    bad.snapshot = { ...bad.snapshot, cardSession: 'NUL\u0000' }; // no JSON text with U+0000 is accepted as jsonb
    const [good, refused] = await Promise.allSettled([
      store.save(write(record('e', 'pending'))),
      store.save(write(bad)),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect((await store.find({ tillId: 'till-1', paymentId: 'e' }))?.record.view.phase).toBe('pending');
    expect((await store.find({ tillId: 'till-1', paymentId: 'f' }))?.record.view.phase).toBe('checking');
  });

  it('refuses a write under an epoch the payment no longer has, and writes none of its events', async () => {
    await store.insert(write(record('g')));
    await db.query("UPDATE cashdesk_payments SET epoch = 2 WHERE payment_id = 'g'"); // another instance claimed it
    expect(await store.save(write(record('g', 'pending'), 1, 1))).toBe(false);
    expect((await store.find({ tillId: 'till-1', paymentId: 'g' }))?.record.view.phase).toBe('checking');
    expect(await store.eventsOf({ tillId: 'till-1', paymentId: 'g' }, 0)).toEqual([]);
  });

  it('writes a state and its events in one statement, readable in order after a number', async () => {
    await store.insert(write(record('h')));
    statements.length = 0;
    expect(await store.save(write(record('h', 'pending'), 1, 3))).toBe(true);
    expect(statements).toEqual(['WITH']);
    expect((await store.find({ tillId: 'till-1', paymentId: 'h' }))?.seq).toBe(3);
    expect((await store.eventsOf({ tillId: 'till-1', paymentId: 'h' }, 1)).map((e) => e.seq)).toEqual([2, 3]);
  });

  it(`keeps the last ${EVENTS_KEPT} events of a payment`, async () => {
    await store.insert(write(record('i')));
    await store.save(write(record('i', 'pending'), 1, EVENTS_KEPT + 5));
    await store.save(write(record('i', 'pending'), 1, 1, EVENTS_KEPT + 6));
    const kept = await store.eventsOf({ tillId: 'till-1', paymentId: 'i' }, 0);
    expect(kept[0]!.seq).toBe(7);
    expect(kept.at(-1)!.seq).toBe(EVENTS_KEPT + 6);
  });
});
