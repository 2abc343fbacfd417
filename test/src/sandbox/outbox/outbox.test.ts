import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../../../src/db/index.js';
import { Outbox, outboxMigrations, RETRY_SCHEDULE_MS } from '../../../../src/sandbox/outbox/index.js';
import { generateWebhookSecret } from '../../../../src/entries/webhooks.js';
import { databaseCases, uniqueSchema } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';
import { eventually, receiver } from '../push/harness.js';
import { testClock } from '../../../support/clock.js';

const secret = generateWebhookSecret();
const payload = (n: number) => ({ eventId: `evt_${n}`, n, text: 'héllo' });
const message = (url: string, n: number, extra: object = {}) => ({
  topic: 'test',
  owner: 'o1',
  eventType: 'thing.happened',
  url,
  secret,
  payload: payload(n),
  ...extra,
});

describe.each(databaseCases('Outbox'))('Outbox on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    await migrate(db, 'outbox', outboxMigrations);
  });
  afterAll(() => db?.close());

  const row = async (id: string) =>
    (
      await db.query<{ attempts: number; status: string; next_attempt_at: Date }>(
        'SELECT attempts, status, next_attempt_at FROM webhook_deliveries WHERE id = $1',
        [id],
      )
    ).rows[0]!;

  it(
    'sends what it enqueued, signed so that the standardwebhooks package ' + 'verifies it, body byte for byte',
    async () => {
      const hook = await receiver();
      const outbox = new Outbox({ db });
      try {
        const id = await db.transaction((tx) => outbox.enqueue(tx, message(hook.url, 1)));
        outbox.start();
        const got = await eventually(async () => hook.received[0]);
        expect(got.body).toBe(JSON.stringify(payload(1)));
        expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual(payload(1));
        expect(got.headers['webhook-id']).toBe(id);
        await eventually(async () => ((await row(id)).status === 'delivered' ? true : undefined));
        const [listed] = await outbox.list({ topic: 'test', id });
        expect(listed).toMatchObject({
          id,
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: null,
          deliveredAt: expect.any(String),
        });
        expect(listed!.history).toEqual([expect.objectContaining({ attempt: 1, httpStatus: 204, error: null })]);
      } finally {
        await outbox.close();
        await hook.close();
      }
    },
  );

  it('keeps nothing enqueued in a transaction that rolled back', async () => {
    const outbox = new Outbox({ db });
    await expect(
      db.transaction(async (tx) => {
        await outbox.enqueue(tx, message('http://127.0.0.1:9/x', 2, { id: 'msg_rolled_back' }));
        throw new Error('change failed');
      }),
    ).rejects.toThrow('change failed');
    expect(await outbox.list({ id: 'msg_rolled_back' })).toEqual([]);
  });

  it('retries on the schedule divided by timeScale, records each attempt, and fails after the 8th', async () => {
    const time = testClock(Date.parse('2026-11-23T10:00:00Z'));
    const hook = await receiver(() => 503);
    // A long poll: only kicks make it look, so the test decides when time has passed.
    const outbox = new Outbox({ db, clock: time.now, timeScale: 10, pollMs: 3_600_000 });
    try {
      const id = await db.transaction((tx) => outbox.enqueue(tx, message(hook.url, 3)));
      outbox.start();
      for (let attempt = 1; attempt <= 8; attempt++) {
        await eventually(
          async () => ((await row(id)).attempts === attempt ? true : undefined),
          10_000,
          `attempt ${attempt}`,
        );
        expect(hook.received).toHaveLength(attempt);
        const wait = RETRY_SCHEDULE_MS[attempt];
        if (wait === undefined) break;
        expect((await row(id)).next_attempt_at.getTime()).toBe(time.now() + wait / 10);
        time.advance(wait / 10 - 1);
        outbox.kick();
        await new Promise((r) => setTimeout(r, 30));
        expect((await row(id)).attempts).toBe(attempt);
        time.advance(1);
        outbox.kick();
      }
      await eventually(async () => ((await row(id)).status === 'failed' ? true : undefined));
      const [listed] = await outbox.list({ id });
      expect(listed).toMatchObject({ status: 'failed', attempts: 8, lastError: 'HTTP 503', nextAttemptAt: null });
      expect(listed!.history.map((h) => h.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const gaps = listed!.history.slice(1).map((h, i) => Date.parse(h.at) - Date.parse(listed!.history[i]!.at));
      expect(gaps).toEqual(RETRY_SCHEDULE_MS.slice(1).map((ms) => ms / 10));
      expect(new Set(hook.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
      time.advance(10 * 3_600_000);
      outbox.kick();
      await new Promise((r) => setTimeout(r, 50));
      expect(hook.received).toHaveLength(8);
    } finally {
      await outbox.close();
      await hook.close();
    }
  });

  it('counts a receiver that answers too late as a failed attempt, and redelivers on request', async () => {
    let slow = true;
    const hook = await receiver(
      () => 200,
      () => (slow ? 1_000 : 0),
    );
    const outbox = new Outbox({ db, timeoutMs: 100, timeScale: 1 });
    try {
      const id = await db.transaction((tx) => outbox.enqueue(tx, message(hook.url, 4)));
      outbox.start();
      await eventually(async () => ((await row(id)).attempts === 1 ? true : undefined));
      const [first] = await outbox.list({ id });
      expect(first).toMatchObject({ status: 'pending', lastError: 'timeout after 100 ms' });
      expect(first!.history[0]).toMatchObject({ httpStatus: null, error: 'timeout after 100 ms' });
      slow = false;
      expect(await outbox.redeliver(id)).toBe(true);
      await eventually(async () => ((await row(id)).status === 'delivered' ? true : undefined));
      expect((await row(id)).attempts).toBe(2);
      expect(await outbox.redeliver(id)).toBe(false);
      expect(await outbox.redeliver('msg_unknown')).toBe(false);
    } finally {
      await outbox.close();
      await hook.close();
    }
  });

  it('enqueues many at once and lists them by owner, newest first', async () => {
    const outbox = new Outbox({ db, clock: () => Date.parse('2030-01-01T00:00:00Z') });
    const ids = await db.transaction((tx) =>
      outbox.enqueueMany(
        tx,
        [1, 2, 3].map((n) => message('http://127.0.0.1:9/x', n, { owner: 'many', id: `msg_many_${n}` })),
      ),
    );
    expect(ids).toEqual(['msg_many_1', 'msg_many_2', 'msg_many_3']);
    const listed = await outbox.list({ topic: 'test', owner: 'many' });
    expect(listed.map((d) => d.id).sort()).toEqual(ids);
    expect(listed.every((d) => d.status === 'pending' && d.attempts === 0 && JSON.parse(d.body).text === 'héllo')).toBe(
      true,
    );
    expect(await outbox.list({ owner: 'many', limit: 2 })).toHaveLength(2);
    expect(await db.transaction((tx) => outbox.enqueueMany(tx, []))).toEqual([]);
    await db.query("DELETE FROM webhook_deliveries WHERE owner = 'many'");
  });

  it('runs its onClose hooks before it stops, once, even when one fails', async () => {
    const outbox = new Outbox({ db });
    const calls: string[] = [];
    outbox.onClose(async () => {
      throw new Error('hook broke');
    });
    outbox.onClose(async () => {
      calls.push('hook');
    });
    outbox.start();
    await outbox.close();
    await outbox.close();
    expect(calls).toEqual(['hook']);
  });
});

describe('Outbox on a data folder', () => {
  it('loses nothing across a restart: what was enqueued before is sent after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpk-outbox-'));
    const hook = await receiver();
    try {
      const first = await openDatabase({ dataDir: dir });
      await migrate(first, 'outbox', outboxMigrations);
      const before = new Outbox({ db: first });
      const id = await first.transaction((tx) => before.enqueue(tx, message(hook.url, 5)));
      await first.close();
      expect(hook.received).toHaveLength(0);

      const second = await openDatabase({ dataDir: dir });
      await migrate(second, 'outbox', outboxMigrations);
      const after = new Outbox({ db: second });
      after.start();
      try {
        const got = await eventually(async () => hook.received[0]);
        expect(got.headers['webhook-id']).toBe(id);
        await eventually(async () => ((await after.list({ id }))[0]?.status === 'delivered' ? true : undefined));
      } finally {
        await after.close();
        await second.close();
      }
    } finally {
      await hook.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.skipIf(!haveService('DATABASE_URL', DATABASE_URL, 'two outboxes on one PostgreSQL'))(
  "two sandboxes' outboxes on one PostgreSQL",
  () => {
    it('sends each delivery once', async () => {
      const schema = uniqueSchema('outbox2');
      const a = await openDatabase({ url: DATABASE_URL!, schema });
      const b = await openDatabase({ url: DATABASE_URL!, schema });
      await migrate(a, 'outbox', outboxMigrations);
      const hook = await receiver(
        () => 200,
        () => 5,
      );
      const one = new Outbox({ db: a, concurrency: 4, pollMs: 20 });
      const two = new Outbox({ db: b, concurrency: 4, pollMs: 20 });
      try {
        const ids = await a.transaction((tx) =>
          one.enqueueMany(
            tx,
            Array.from({ length: 200 }, (_, n) => message(hook.url, n)),
          ),
        );
        one.start();
        two.start();
        await eventually(
          async () => {
            const { rows } = await a.query<{ n: number }>(
              "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'",
            );
            return rows[0]!.n === 200 ? true : undefined;
          },
          20_000,
          'all delivered',
        );
        const seen = hook.received.map((r) => r.headers['webhook-id']);
        expect(seen).toHaveLength(200);
        expect(new Set(seen)).toEqual(new Set(ids));
        const { rows } = await a.query<{ n: number }>('SELECT count(*) AS n FROM webhook_attempts');
        expect(rows[0]!.n).toBe(200);
      } finally {
        await one.close();
        await two.close();
        await hook.close();
        await a.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await a.close();
        await b.close();
      }
    });
  },
);
