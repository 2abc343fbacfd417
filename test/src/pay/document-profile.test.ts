import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier } from '../../../src/entries/index.js';
import {
  createPayClient,
  createPaymentSession,
  type PayClientEvent,
  type PayClientOptions,
  type PaymentSessionEvent,
} from '../../../src/entries/pay.js';
import { startFakePayServer } from './fake-pay-server.js';
import { BASKET } from './session-fixture.js';

/**
 * Every field name the interface document gives the Pay API: the first column
 * of section 2.4's table, and what the /checkout row of 4.2 says it carries.
 * Read from a verbatim excerpt of the document, not from the kit's contract.
 */
function documentFields(): Set<string> {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'support', 'interface-document-pay.md'), 'utf8');
  const table = text.split('### 2.4')[1]!.split('\n\n')[1]!;
  const fields = table
    .split('\n')
    .slice(2)
    .map((row) => row.split('|')[1]!.trim());
  const carries = /\| \/checkout \|[^|]*Carries the ([^|]+)\|/.exec(text)![1]!;
  return new Set([...fields, ...carries.split(',').map((f) => f.trim())]);
}

/** Every key of a JSON value, at any depth, as `path.key`. */
function keysOf(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysOf(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    `${path}${path ? '.' : ''}${k}`,
    ...keysOf(v, `${path}${path ? '.' : ''}${k}`),
  ]);
}

const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
let fake: Awaited<ReturnType<typeof startFakePayServer>>;
let clientEvents: PayClientEvent[];
beforeAll(async () => {
  fake = await startFakePayServer();
});
afterAll(async () => {
  await fake.close();
  await verifier.close();
});
beforeEach(() => {
  fake.received.length = 0;
  clientEvents = [];
});

const client = (extra: Partial<PayClientOptions> = {}) =>
  createPayClient({
    baseUrl: fake.url,
    verifier,
    retries: false,
    onEvent: (e) => clientEvents.push(e),
    ...extra,
  } as PayClientOptions);
const bodies = (path: string) =>
  fake.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));
const notUnderstood = () =>
  clientEvents.filter(
    (e): e is Extract<PayClientEvent, { type: 'responseNotUnderstood' }> => e.type === 'responseNotUnderstood',
  );

/** A service that names only what the document names, and adds fields of its own in every casing. */
function scriptForeignService() {
  fake.script('/availability-info/task', {
    status: 200,
    body: {
      walletPayIsDefault: true,
      TaskID: 'T-9',
      provider_list_version: 3,
      providers: [{ message: null, ProviderCode: 'sbp', DISPLAY_NAME: 'СБП' }],
    },
  });
  fake.script('/checkout', {
    status: 200,
    body: { transactionId: 'trx-doc-1', TransactionID: 'other', bank_reference: 'r-1' },
  });
  fake.script(
    '/status',
    { status: 200, body: { transactionId: 'trx-doc-1', status: 'processing', STATUS_CODE: 7 } },
    { status: 200, body: { status: 'succeeded', processedAt: '2026-11-23T10:00:00Z' } },
  );
}

function open(profile: 'document' | 'kit') {
  const events: PaymentSessionEvent[] = [];
  let n = 0;
  const session = createPaymentSession({
    client: client({ profile }),
    cardSession: 'AB12CD34',
    basket: BASKET,
    rescan: async () => 'EF56GH78',
    pollIntervalMs: 5,
    recovery: { rounds: 2, baseMs: 1, maxMs: 1 },
    newId: () => `req-${++n}`,
    onEvent: (e) => events.push(e),
  });
  return { session, events };
}

describe('createPayClient against a service that is not the kit', () => {
  it.each(['document', 'kit'] as const)(
    "completes a payment whose answers carry extras in any casing and lack the kit's fields (profile %s)",
    async (profile) => {
      scriptForeignService();
      const { session } = open(profile);
      expect(await session.start()).toBe('pending');
      expect(session.providers).toEqual([{ providerId: '', name: '', available: true }]);
      expect(session.transactionId).toBe('trx-doc-1');
      expect(await session.waitForResult()).toEqual({
        transactionId: 'trx-doc-1',
        status: 'succeeded',
        statusClass: 'successful',
      });
      expect(session.phase).toBe('succeeded');
      session.close();
      const reported = notUnderstood().map((e) => [e.path, e.unknown]);
      expect(reported).toEqual([
        [
          '/availability-info/task',
          ['TaskID', 'provider_list_version', 'providers[0].ProviderCode', 'providers[0].DISPLAY_NAME'],
        ],
        ['/checkout', ['TransactionID', 'bank_reference']],
        ['/status', ['STATUS_CODE']],
        ['/status', ['processedAt']],
      ]);
      expect(notUnderstood()[1]!.missing).toEqual(['requestId', 'status']);
      expect(clientEvents.filter((e) => e.type === 'failure')).toEqual([]);
    },
  );

  it('sends under profile document no field the document does not name, and no default measure', async () => {
    scriptForeignService();
    const { session } = open('document');
    await session.start();
    await session.waitForResult();
    session.close();
    const allowed = documentFields();
    expect([...allowed]).toEqual(
      expect.arrayContaining(['measure', 'items', 'requestId', 'cardSession', 'transactionId', 'totalAmount']),
    );
    const sent = fake.received.flatMap((r) => keysOf(JSON.parse(r.body.toString('utf8'))).map((k) => `${r.path} ${k}`));
    expect(
      sent.filter(
        (k) =>
          !allowed.has(
            k
              .split(/[ .]/)
              .at(-1)!
              .replace(/\[\d+\]$/, ''),
          ),
      ),
    ).toEqual([]);
    expect(fake.received.map((r) => r.path)).toEqual(['/availability-info/task', '/checkout', '/status', '/status']);
    expect(bodies('/status')[0]).toEqual({ transactionId: 'trx-doc-1' });
    // measure only where the caller gave it (the cheese, by the gram).
    expect(bodies('/checkout')[0].items.map((i: { measure?: string }) => i.measure)).toEqual([undefined, 'GRAM']);
  });

  it(
    'repeats a /checkout whose answer was lost with the same requestId and ' + 'cardSession, under profile document',
    async () => {
      fake.script('/availability-info/task', { status: 200, body: { walletPayIsDefault: true, providers: [{}] } });
      fake.script('/checkout', { destroy: true }, { status: 200, body: { transactionId: 'trx-doc-2' } });
      const { session, events } = open('document');
      expect(await session.start()).toBe('pending');
      session.close();
      expect(fake.received.map((r) => r.path)).toEqual(['/availability-info/task', '/checkout', '/checkout']);
      const [first, again] = fake.received.filter((r) => r.path === '/checkout');
      expect(again!.body.equals(first!.body)).toBe(true);
      expect(JSON.parse(first!.body.toString())).toMatchObject({ requestId: 'req-1', cardSession: 'AB12CD34' });
      expect(events.filter((e) => e.type === 'recovering').map((e) => (e as { step: string }).step)).toEqual([
        'checkout',
      ]);
    },
  );

  it(
    'treats a 2xx /checkout answer without transactionId as no answer (the ' + 'invoice may exist), not as a refusal',
    async () => {
      fake.script('/availability-info/task', { status: 200, body: { walletPayIsDefault: true, providers: [{}] } });
      fake.script(
        '/checkout',
        { status: 200, body: { TransactionId: 'trx-doc-3' } },
        { status: 200, body: { transactionId: 'trx-doc-3' } },
      );
      const document = open('document');
      expect(await document.session.start()).toBe('pending');
      document.session.close();
      expect(document.session.transactionId).toBe('trx-doc-3');
      expect(clientEvents.find((e) => e.type === 'failure')).toMatchObject({
        error: { code: 'PAY_PROTOCOL', httpStatus: 200, errors: ['transactionId: missing'] },
      });

      // profile kit: the probe by requestId finds it; a service that refuses the probe gets the same /checkout again.
      fake.received.length = 0;
      fake.script('/availability-info/task', { status: 200, body: { walletPayIsDefault: true, providers: [{}] } });
      fake.script('/checkout', { status: 200, body: {} }, { status: 200, body: { transactionId: 'trx-kit-4' } });
      fake.script('/status', { status: 400, body: { status: 'BAD_REQUEST', errors: ['transactionId: required'] } });
      const kit = open('kit');
      expect(await kit.session.start()).toBe('pending');
      kit.session.close();
      expect(kit.session.transactionId).toBe('trx-kit-4');
      expect(fake.received.map((r) => r.path).slice(0, 4)).toEqual([
        '/availability-info/task',
        '/checkout',
        '/status',
        '/checkout',
      ]);
      expect(bodies('/status')[0]).toEqual({ requestId: 'req-1', cardSession: 'AB12CD34' });
    },
  );

  it("ends the card when the kit's probe is refused for its token, sending no second /checkout", async () => {
    fake.script('/availability-info/task', { status: 200, body: { walletPayIsDefault: true, providers: [{}] } });
    fake.script('/checkout', { status: 200, body: {} });
    fake.script('/status', { status: 401, body: { status: 'TOKEN_INVALID', errors: [] } });
    const { session } = open('kit');
    await expect(session.start()).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect(session.phase).toBe('blocked');
    expect(fake.received.map((r) => r.path)).toEqual(['/availability-info/task', '/checkout', '/status']);
  });

  it('refuses under profile document, before sending, what only the kit has', async () => {
    const pay = client({ profile: 'document' });
    const items = [{ name: 'Milk', article: 'MILK-1', quantity: 1, price: 100 }];
    await expect(
      pay.checkout({
        requestId: 'r',
        cardSession: 'AB12',
        providerId: 'sbp',
        items,
        discountAmount: 0,
        totalAmount: 100,
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      attempts: 0,
      errors: ["providerId: not a field of the interface document for /checkout (profile 'document')"],
    });
    await expect(
      pay.availabilityTask({ requestId: 'r', cardSession: 'AB12', discountAmount: 0, totalAmount: 0, offers: [] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', errors: [expect.stringMatching(/^offers: not a field/)] });
    await expect(pay.status({ requestId: 'r', cardSession: 'AB12' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(pay.refund({ transactionId: 't', refundId: 'x', amount: 5 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      errors: [expect.stringMatching(/^refundId: not a field/), expect.stringMatching(/^amount: not a field/)],
    });
    await expect(pay.cancel({ transactionId: 't' })).rejects.toMatchObject({ code: 'PAY_UNSUPPORTED', attempts: 0 });
    await expect(pay.receipt({ transactionId: 't', receipt: {} })).rejects.toMatchObject({ code: 'PAY_UNSUPPORTED' });
    expect(fake.received).toEqual([]);
    // The service's own paths make them usable; a refund without refundId is never repeated (it could refund twice).
    const withPaths = client({
      profile: 'document',
      paths: { cancel: '/payments/cancel' },
      retries: { max: 3, baseMs: 1, maxMs: 1 },
    });
    fake.script('/payments/cancel', { status: 200, body: { status: 'cancelled' } });
    expect(await withPaths.cancel({ transactionId: 'trx-1' })).toEqual({
      transactionId: 'trx-1',
      status: 'cancelled',
      statusClass: 'unsuccessful',
    });
    fake.script('/refund', { status: 503, body: {} });
    await expect(withPaths.refund({ transactionId: 'trx-1' })).rejects.toMatchObject({
      code: 'PAY_SERVER',
      attempts: 1,
    });
    expect(fake.received.map((r) => r.path)).toEqual(['/payments/cancel', '/refund']);
  });

  it('puts the token in tokenHeader, computed by sign over the exact bytes sent', async () => {
    const key = 'a service-specific secret';
    const seen: Array<[string, string]> = [];
    const pay = client({
      verifier: undefined,
      tokenHeader: 'Authorization',
      sign: (requestData, { path }) => {
        seen.push([path, requestData]);
        return `HMAC ${createHmac('sha256', key).update(requestData).digest('hex')}`;
      },
    });
    fake.script('/status', { status: 200, body: { transactionId: 'trx-1', status: 'created' } });
    await pay.status({ transactionId: 'trx-1' });
    const [request] = fake.received;
    expect(seen).toEqual([['/status', request!.body.toString('utf8')]]);
    expect(request!.headers.authorization).toBe(
      `HMAC ${createHmac('sha256', key).update(request!.body).digest('hex')}`,
    );
    expect(request!.headers['x-wallet-token']).toBeUndefined();
    expect(() => client({ tokenHeader: 'Content-Type' })).toThrow(
      /tokenHeader: must not be a header the client sets itself/,
    );
    expect(() => client({ tokenHeader: 'X Token' })).toThrow(/tokenHeader: must be an HTTP header name/);
  });
});
