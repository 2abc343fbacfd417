import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier } from '../../../src/entries/index.js';
import { ConfigError } from '../../../src/errors.js';
import { createPayClient, type PayClientEvent, type PayDialectConfig } from '../../../src/entries/pay.js';
import { startFakePayServer } from './fake-pay-server.js';

// The foreign service of examples/dialects/sandbox-foreign.json, in part.
const dialect: PayDialectConfig = {
  statuses: { PAID: 'successful', NEW: 'transit', IN_PROGRESS: 'transit', CANCELED: 'unsuccessful' },
  errorCodes: { cardSessionInvalid: ['SESSION_EXPIRED'], tokenInvalid: ['BAD_SIGNATURE'] },
};

const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
let fake: Awaited<ReturnType<typeof startFakePayServer>>;
let events: PayClientEvent[];

beforeAll(async () => {
  fake = await startFakePayServer();
});
afterAll(async () => {
  await fake.close();
  await verifier.close();
});
beforeEach(() => {
  fake.received.length = 0;
  events = [];
});

function client() {
  return createPayClient({ baseUrl: fake.url, verifier, retries: false, dialect, onEvent: (e) => events.push(e) });
}
const notUnderstood = () => events.filter((e) => e.type === 'statusNotUnderstood' || e.type === 'codeNotUnderstood');

describe('createPayClient with a dialect', () => {
  it('keeps a status as the service wrote it and classes it by the map', async () => {
    fake.script('/status', { status: 200, body: { transactionId: 'T-1', status: 'PAID', statusClass: 'transit' } });
    expect(await client().status({ transactionId: 'T-1' })).toEqual({
      transactionId: 'T-1',
      status: 'PAID',
      statusClass: 'successful',
    });
  });

  it("still understands the kit's own six statuses", async () => {
    fake.script('/status', { status: 200, body: { transactionId: 'T-1', status: 'rejected' } });
    expect(await client().status({ transactionId: 'T-1' })).toMatchObject({
      status: 'rejected',
      statusClass: 'unsuccessful',
    });
  });

  it('answers a status the map does not name without a class, and reports it once per answer', async () => {
    fake.script('/status', { status: 200, body: { transactionId: 'T-1', status: 'ON_HOLD' } });
    const state = await client().status({ transactionId: 'T-1' });
    expect(state).toEqual({ transactionId: 'T-1', status: 'ON_HOLD' });
    expect(notUnderstood()).toEqual([
      expect.objectContaining({
        type: 'statusNotUnderstood',
        operation: 'status',
        transactionId: 'T-1',
        status: 'ON_HOLD',
        httpStatus: 200,
      }),
    ]);
  });

  it('reads a mapped card session code on a 410 as CARD_SESSION_INVALID', async () => {
    fake.script('/checkout', { status: 410, body: { code: 'SESSION_EXPIRED', message: 'card session expired' } });
    const body = {
      requestId: 'r-1',
      cardSession: 'AB12CD34',
      items: [{ name: 'x', article: 'X', quantity: 1, price: 100 }],
      discountAmount: 0,
      totalAmount: 100,
    };
    await expect(client().checkout(body)).rejects.toMatchObject({
      code: 'CARD_SESSION_INVALID',
      httpStatus: 410,
      serverCode: 'SESSION_EXPIRED',
      errors: ['card session expired'],
    });
    expect(notUnderstood()).toEqual([]);
  });

  it('reads the code and message from the first of the usual places', async () => {
    const bodies = [
      [{ status: 'BAD_SIGNATURE', errors: ['a', 'b'] }, 'BAD_SIGNATURE', ['a', 'b']],
      [{ errorCode: 'X1', detail: 'd' }, 'X1', ['d']],
      [{ error: { code: 'X2', message: 'm' } }, 'X2', ['m']],
      [{ error: 'X3', message: 'plain' }, 'X3', ['plain']],
    ] as const;
    for (const [body, serverCode, errors] of bodies) {
      fake.script('/cancel', { status: 409, body });
      await expect(client().cancel({ transactionId: 'T-1' })).rejects.toMatchObject({ serverCode, errors });
    }
  });

  it(
    "refuses with REFUSED, the service's code and message kept and " + 'reported, when the code is not mapped',
    async () => {
      fake.script('/cancel', { status: 409, body: { code: 'OPERATION_NOT_ALLOWED', message: 'already paid' } });
      const error = await client()
        .cancel({ transactionId: 'T-1' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'PAY_REFUSED',
        httpStatus: 409,
        serverCode: 'OPERATION_NOT_ALLOWED',
        errors: ['already paid'],
      });
      expect((error as Error).message).toContain('OPERATION_NOT_ALLOWED');
      expect(notUnderstood()).toEqual([
        expect.objectContaining({
          type: 'codeNotUnderstood',
          operation: 'cancel',
          httpStatus: 409,
          code: 'OPERATION_NOT_ALLOWED',
          messages: ['already paid'],
        }),
      ]);
    },
  );

  it('sends a transactionId back in the JSON type it came in', async () => {
    fake.script('/status', { status: 200, body: '{"transactionId":1000000000123,"status":"NEW"}' });
    const state = await client().status({ transactionId: 1_000_000_000_123 });
    expect(state.transactionId).toBe(1_000_000_000_123);
    expect(fake.received[0]!.body.toString()).toBe('{"transactionId":1000000000123}');
    fake.script('/cancel', { status: 200, body: { transactionId: 'T-7', status: 'CANCELED' } });
    await client().cancel({ transactionId: 'T-7' });
    expect(fake.received[1]!.body.toString()).toBe('{"transactionId":"T-7"}');
  });

  it('refuses a numeric transactionId beyond 2^53 - 1 with PROTOCOL naming the field', async () => {
    fake.script('/status', { status: 200, body: '{"transactionId":9007199254740993,"status":"NEW"}' });
    const error = await client()
      .status({ transactionId: 'T-1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAY_PROTOCOL', errors: [expect.stringMatching(/^transactionId: .*2\^53/)] });
  });

  it('names a status class that is none of the three at creation', () => {
    const bad = () =>
      createPayClient({ baseUrl: fake.url, verifier, dialect: { statuses: { PAID: 'paid' as never } } });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/dialect\.statuses\.PAID/);
  });

  it('refuses one code given to two refusals at creation', () => {
    const bad = () =>
      createPayClient({
        baseUrl: fake.url,
        verifier,
        dialect: { errorCodes: { tokenInvalid: ['X'], notFound: ['X'] } },
      });
    expect(bad).toThrow(/X is already a code of tokenInvalid/);
  });
});
