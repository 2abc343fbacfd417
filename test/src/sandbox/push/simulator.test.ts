import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackEvent } from '../../../../src/contracts/callback/index.js';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { call, eventually, message, readyAccount, receiver } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';
import { testClock } from '../../../support/clock.js';

const time = testClock(Date.now());
const clock = time.now;

describe.each(sandboxCases('Push wallet-app simulator'))('the wallet-app inbox on $name', ({ start }) => {
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

  const events = async (login: string, count: number) =>
    eventually(
      async () => {
        const list = (await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries as {
          body: string;
        }[];
        return list.length >= count ? list.map((d) => CallbackEvent.parse(JSON.parse(d.body))) : undefined;
      },
      10_000,
      `${count} events`,
    );

  it('shows the messages a phone got, newest first, with their content and status', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false, singleIntervalMs: 0 });
    await call(
      url,
      'POST',
      '/public/push/single',
      { msisdn: '79995550001', subId: 'a', message: { title: 'First', text: 'one' } },
      auth,
    );
    time.advance(1);
    await call(
      url,
      'POST',
      '/public/push/single',
      {
        msisdn: '79995550001',
        subId: 'b',
        message: { title: 'Second', text: 'two', deeplink: 'https://shop.example/x' },
      },
      auth,
    );
    const inbox = await call(url, 'GET', '/sandbox/app/inbox/79995550001');
    expect(inbox.body.messages).toEqual([
      {
        messageId: expect.any(String),
        subId: 'b',
        login,
        title: 'Second',
        text: 'two',
        deeplink: 'https://shop.example/x',
        status: 'QUEUED',
        receivedAt: new Date(time.now()).toISOString(),
      },
      {
        messageId: expect.any(String),
        subId: 'a',
        login,
        title: 'First',
        text: 'one',
        deeplink: null,
        status: 'QUEUED',
        receivedAt: new Date(time.now() - 1).toISOString(),
      },
    ]);
    expect((await call(url, 'GET', '/sandbox/app/inbox/79995550009')).body).toEqual({ messages: [] });
    expect((await call(url, 'GET', '/sandbox/app/inbox/not-a-number')).status).toBe(400);
  });

  it('marks a DELIVERED message READ with one push.read callback', async () => {
    const { login, auth } = await readyAccount(url, { callbackUrl: hook.url });
    const sent = await call(url, 'POST', '/public/push/single', { msisdn: '79995550002', subId: 'r', message }, auth);
    const id = sent.body.messageId as string;
    time.advance(1_000);
    await eventually(async () =>
      (await call(url, 'GET', `/public/push/${id}`, undefined, auth)).body.status === 'SENT' ? true : undefined,
    );
    time.advance(1_000);
    await eventually(async () =>
      (await call(url, 'GET', `/public/push/${id}`, undefined, auth)).body.status === 'DELIVERED' ? true : undefined,
    );
    time.advance(5_000);
    const read = await call(url, 'POST', `/sandbox/app/inbox/79995550002/messages/${id}/read`);
    expect(read.body).toMatchObject({ messageId: id, status: 'READ' });
    expect((await call(url, 'GET', `/public/push/${id}`, undefined, auth)).body).toMatchObject({
      status: 'READ',
      updatedAt: new Date(time.now()).toISOString(),
    });
    const list = await events(login, 2);
    expect(list.map((e) => e.type).sort()).toEqual(['push.delivered', 'push.read']);
    expect(list.find((e) => e.type === 'push.read')).toMatchObject({
      messageId: id,
      subId: 'r',
      msisdn: '79995550002',
      occurredAt: new Date(time.now()).toISOString(),
    });
    // Reading again changes nothing and sends nothing.
    expect((await call(url, 'POST', `/sandbox/app/inbox/79995550002/messages/${id}/read`)).body.status).toBe('READ');
    await new Promise((r) => setTimeout(r, 100));
    expect((await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries).toHaveLength(2);
  });

  it('delivers then reads a message not yet delivered: push.delivered and push.read', async () => {
    const { login, auth } = await readyAccount(url, { callbackUrl: hook.url, simulateDelivery: false });
    const sent = await call(url, 'POST', '/public/push/single', { msisdn: '79995550003', subId: 'q', message }, auth);
    const read = await call(url, 'POST', `/sandbox/app/inbox/79995550003/messages/${sent.body.messageId}/read`);
    expect(read.body.status).toBe('READ');
    const list = await events(login, 2);
    expect(list.map((e) => e.type).sort()).toEqual(['push.delivered', 'push.read']);
    expect(new Set(list.map((e) => e.eventId)).size).toBe(2);
  });

  it(
    'refuses to read a message of another phone (404), an unknown one (404), a FAILED one or on an unreachable ' +
      'phone (409)',
    async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      const sent = await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: ['79995550004', '79995550005'], subId: 'x', message },
        auth,
      );
      const [a, b] = sent.body.messages as { messageId: string }[];
      expect((await call(url, 'POST', `/sandbox/app/inbox/79995550005/messages/${a!.messageId}/read`)).status).toBe(
        404,
      );
      expect((await call(url, 'POST', '/sandbox/app/inbox/79995550005/messages/pm_none/read')).body).toMatchObject({
        status: 'NOT_FOUND',
        errors: ['messageId: no such message on this phone'],
      });
      await call(url, 'POST', '/sandbox/push/phones/79995550005', { state: 'unreachable' });
      const unreachable = await call(url, 'POST', `/sandbox/app/inbox/79995550005/messages/${b!.messageId}/read`);
      expect(unreachable).toMatchObject({
        status: 409,
        body: { status: 'INVALID_STATE', errors: ['msisdn: the phone is unreachable'] },
      });
      // Let the simulation fail it: with the phone back online, a FAILED message still cannot be read.
      await call(url, 'PATCH', `/sandbox/push/accounts/${login}`, { simulateDelivery: true });
      time.advance(1_000);
      await eventually(async () =>
        (await call(url, 'GET', `/public/push/${b!.messageId}`, undefined, auth)).body.status === 'FAILED'
          ? true
          : undefined,
      );
      await call(url, 'POST', '/sandbox/push/phones/79995550005', { state: 'online' });
      const failed = await call(url, 'POST', `/sandbox/app/inbox/79995550005/messages/${b!.messageId}/read`);
      expect(failed).toMatchObject({
        status: 409,
        body: { status: 'INVALID_STATE', errors: ['messageId: the message failed and cannot be read'] },
      });
      expect((await call(url, 'POST', '/sandbox/push/phones/79995550005', { state: 'sideways' })).status).toBe(400);
    },
  );
});
