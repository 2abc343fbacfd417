import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackEvent } from '../../../../src/contracts/callback/index.js';
import { migrate, type Database } from '../../../../src/db/index.js';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { Outbox, outboxMigrations } from '../../../../src/sandbox/outbox/index.js';
import { createAccount, findAccount } from '../../../../src/sandbox/push/accounts.js';
import { pushMigrations } from '../../../../src/sandbox/push/migrations.js';
import { PhoneSimulator } from '../../../../src/sandbox/push/progress.js';
import { sendBatch } from '../../../../src/sandbox/push/send.js';
import { databaseCases } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';
import { call, eventually, message, numbers, readyAccount, receiver, twoOnPostgres } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';
import { testClock } from '../../../support/clock.js';

// Starts at the real time (receivers check webhook timestamps against it) and moves only when a test says so.
const time = testClock(Date.now());
const clock = time.now;

describe.each(sandboxCases('Push simulated phones'))('simulated phones on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  let url: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    sandbox = await start({ clock });
    url = sandbox.url;
    hook = await receiver();
  });
  afterAll(async () => {
    await sandbox?.close();
    await hook?.close();
  });

  const state = async (auth: Record<string, string>, messageId: string) =>
    (await call(url, 'GET', `/public/push/${messageId}`, undefined, auth)).body;
  const statusBecomes = (auth: Record<string, string>, messageId: string, status: string) =>
    eventually(
      async () => ((await state(auth, messageId)).status === status ? true : undefined),
      30_000,
      `${messageId} ${status}`,
    );

  it(
    'moves a message QUEUED -> SENT after 200 ms and DELIVERED after 1 s, ' + 'then posts a signed push.delivered',
    async () => {
      const { login, auth, created } = await readyAccount(url, { callbackUrl: hook.url });
      const sent = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '79990001111', subId: 'life', message },
        auth,
      );
      const id = sent.body.messageId as string;
      time.advance(150);
      await new Promise((r) => setTimeout(r, 150));
      expect((await state(auth, id)).status).toBe('QUEUED');
      time.advance(50);
      await statusBecomes(auth, id, 'SENT');
      time.advance(700);
      await new Promise((r) => setTimeout(r, 150));
      expect((await state(auth, id)).status).toBe('SENT');
      time.advance(100);
      await statusBecomes(auth, id, 'DELIVERED');
      expect((await state(auth, id)).updatedAt).toBe(new Date(time.now()).toISOString());

      const got = await eventually(async () => hook.received.find((r) => r.body.includes(id)), 30_000, 'the callback');
      const verified = new Webhook(created.callbackSecret).verify(got.body, got.headers as Record<string, string>);
      const event = CallbackEvent.parse(verified);
      expect(event).toEqual({
        eventId: got.headers['webhook-id'],
        type: 'push.delivered',
        messageId: id,
        subId: 'life',
        msisdn: '79990001111',
        occurredAt: new Date(time.now()).toISOString(),
      });
      expect(Object.keys(JSON.parse(got.body))).toEqual([
        'eventId',
        'type',
        'messageId',
        'subId',
        'msisdn',
        'occurredAt',
      ]);
      expect(got.headers['content-type']).toBe('application/json');

      const deliveries = await eventually(async () => {
        const list = (await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries;
        return list.length === 1 && list[0].status === 'delivered' ? list : undefined;
      });
      expect(deliveries[0]).toMatchObject({
        id: event.eventId,
        topic: 'push',
        owner: login,
        eventType: 'push.delivered',
        url: hook.url,
        attempts: 1,
      });
      expect(deliveries[0].history).toEqual([expect.objectContaining({ attempt: 1, httpStatus: 204, error: null })]);
    },
  );

  it('fails messages to an unreachable phone with push.failed, and delivers again once it is online', async () => {
    const { login, auth } = await readyAccount(url, { callbackUrl: hook.url });
    expect((await call(url, 'POST', '/sandbox/push/phones/79990002222', { state: 'unreachable' })).body).toEqual({
      msisdn: '79990002222',
      state: 'unreachable',
    });
    const batch = await call(
      url,
      'POST',
      '/public/push/batch',
      { msisdn: ['79990002222', '79990003333'], subId: 'down', message },
      auth,
    );
    const [down, up] = batch.body.messages as { messageId: string }[];
    time.advance(1_000);
    await statusBecomes(auth, down!.messageId, 'FAILED');
    time.advance(1_000);
    await statusBecomes(auth, up!.messageId, 'DELIVERED');
    const types = await eventually(async () => {
      const list = (await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries as {
        eventType: string;
        body: string;
      }[];
      return list.length === 2 ? list.map((d) => [d.eventType, JSON.parse(d.body).msisdn]).sort() : undefined;
    });
    expect(types).toEqual([
      ['push.delivered', '79990003333'],
      ['push.failed', '79990002222'],
    ]);
    await call(url, 'POST', '/sandbox/push/phones/79990002222', { state: 'online' });
    const again = await call(url, 'POST', '/public/push/single', { msisdn: '79990002222', subId: 'up', message }, auth);
    time.advance(1_000);
    await statusBecomes(auth, again.body.messageId, 'SENT');
    time.advance(1_000);
    await statusBecomes(auth, again.body.messageId, 'DELIVERED');
  });

  it('leaves messages QUEUED while simulateDelivery is off, and moves them once it is turned on', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false });
    const sent = await call(
      url,
      'POST',
      '/public/push/single',
      { msisdn: '79990004444', subId: 'held', message },
      auth,
    );
    time.advance(5_000);
    await new Promise((r) => setTimeout(r, 200));
    expect((await state(auth, sent.body.messageId)).status).toBe('QUEUED');
    const patched = await call(url, 'PATCH', `/sandbox/push/accounts/${login}`, { simulateDelivery: true });
    expect(patched.body.simulateDelivery).toBe(true);
    await statusBecomes(auth, sent.body.messageId, 'SENT');
    time.advance(1_000);
    await statusBecomes(auth, sent.body.messageId, 'DELIVERED');
  });

  it('enqueues no callback for an account without a callback URL', async () => {
    const { login, auth } = await readyAccount(url);
    const sent = await call(
      url,
      'POST',
      '/public/push/single',
      { msisdn: '79990005555', subId: 'quiet', message },
      auth,
    );
    time.advance(2_000);
    await statusBecomes(auth, sent.body.messageId, 'SENT');
    time.advance(2_000);
    await statusBecomes(auth, sent.body.messageId, 'DELIVERED');
    expect((await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries).toEqual([]);
  });
});

describe.each(databaseCases('PhoneSimulator'))('PhoneSimulator on $name', ({ open }) => {
  let db: Database;
  let outbox: Outbox;
  const bulkTime = testClock(Date.parse('2026-11-23T10:00:00Z'));
  beforeAll(async () => {
    db = await open();
    await migrate(db, 'outbox', outboxMigrations);
    await migrate(db, 'push', pushMigrations);
    outbox = new Outbox({ db, clock: bulkTime.now });
  });
  afterAll(() => db?.close());

  it(
    'moves many messages in chunks, one callback per delivery in the same commit, and skips accounts with the ' +
      'simulation off',
    async () => {
      await createAccount(db, bulkTime.now(), { login: 'bulk', partner: 'p', callbackUrl: 'http://127.0.0.1:9/none' });
      await createAccount(db, bulkTime.now(), {
        login: 'off',
        partner: 'p',
        simulateDelivery: false,
        callbackUrl: 'http://127.0.0.1:9/none',
      });
      for (const login of ['bulk', 'off']) {
        const account = (await findAccount(db, login))!;
        await sendBatch(
          { db, account, now: bulkTime.now(), timeScale: 1, path: '/public/push/batch' },
          { msisdn: numbers(2_500), subId: 's', message },
        );
      }
      const simulator = new PhoneSimulator({
        db,
        outbox,
        clock: bulkTime.now,
        logger: (await import('pino')).pino({ level: 'silent' }),
        timeScale: 1,
        chunk: 1_000,
      });
      expect(await simulator.runDue()).toBe(0);
      bulkTime.advance(200);
      expect(await simulator.runDue()).toBe(2_500);
      const count = async (login: string, status: string) =>
        (
          await db.query<{ n: number }>('SELECT count(*) AS n FROM push_messages WHERE login = $1 AND status = $2', [
            login,
            status,
          ])
        ).rows[0]!.n;
      expect(await count('bulk', 'SENT')).toBe(2_500);
      expect((await db.query<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries')).rows[0]!.n).toBe(0);
      bulkTime.advance(800);
      expect(await simulator.runDue()).toBe(2_500);
      expect(await count('bulk', 'DELIVERED')).toBe(2_500);
      expect(await count('off', 'QUEUED')).toBe(2_500);
      const events = await db.query<{ owner: string; event_type: string; body: string }>(
        'SELECT owner, event_type, body FROM webhook_deliveries',
      );
      expect(events.rows).toHaveLength(2_500);
      expect(new Set(events.rows.map((e) => JSON.parse(e.body).messageId)).size).toBe(2_500);
      expect(events.rows.every((e) => e.owner === 'bulk' && e.event_type === 'push.delivered')).toBe(true);
      bulkTime.advance(10_000);
      expect(await simulator.runDue()).toBe(0);
      await simulator.close();
    },
  );

  it('opens no transaction on a tick with nothing due, and one once a message is due', async () => {
    let transactions = 0;
    const counted: Database = {
      ...db,
      transaction: (fn) => {
        transactions += 1;
        return db.transaction(fn);
      },
    };
    await createAccount(db, bulkTime.now(), { login: 'idle', partner: 'p' });
    await sendBatch(
      { db, account: (await findAccount(db, 'idle'))!, now: bulkTime.now(), timeScale: 1, path: '/public/push/batch' },
      { msisdn: numbers(1), subId: 's', message },
    );
    const simulator = new PhoneSimulator({
      db: counted,
      outbox,
      clock: bulkTime.now,
      logger: (await import('pino')).pino({ level: 'silent' }),
      timeScale: 1,
    });
    expect(await simulator.runDue()).toBe(0);
    expect(transactions).toBe(0);
    bulkTime.advance(200);
    expect(await simulator.runDue()).toBe(1);
    expect(transactions).toBe(1);
    await simulator.close();
  });
});

describe.skipIf(!haveService('DATABASE_URL', DATABASE_URL, 'two Push sandboxes on one PostgreSQL'))(
  'two sandboxes on one PostgreSQL',
  () => {
    it('move each message once and send each callback once', async () => {
      const [a, b] = await twoOnPostgres({ timeScale: 1000 });
      const hook = await receiver();
      try {
        const { login, auth } = await readyAccount(a.url, { callbackUrl: hook.url });
        const sent = await call(
          b.url,
          'POST',
          '/public/push/batch',
          { msisdn: numbers(300), subId: 'two', message },
          auth,
        );
        expect(sent.body.accepted).toBe(300);
        await eventually(async () => (hook.received.length >= 300 ? true : undefined), 20_000, '300 callbacks');
        await new Promise((r) => setTimeout(r, 200));
        const bodies = hook.received.map((r) => JSON.parse(r.body) as { messageId: string; type: string });
        expect(bodies).toHaveLength(300);
        expect(new Set(bodies.map((e) => e.messageId)).size).toBe(300);
        expect(bodies.every((e) => e.type === 'push.delivered')).toBe(true);
        expect((await call(a.url, 'GET', `/sandbox/push/stats?login=${login}`)).body.byStatus.DELIVERED).toBe(300);
      } finally {
        await a.close();
        await b.close();
        await hook.close();
      }
    });
  },
);
