import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drawBarcode } from '../../../../adapters/node/primitives.js';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier } from '../../../../src/entries/index.js';
import { ConfigError } from '../../../../src/errors.js';
import {
  checkPayApi,
  type PayCheckOptions,
  type PayCheckProgress,
  type PayCheckReport,
} from '../../../../src/entries/pay.js';
import { cardSessionOfBarcode, sandboxCardSession } from '../../../../src/pay/check/card.js';
import { formatPayCheckReport } from '../../../../src/pay/check/format.js';
import { startFakePayServer } from '../fake-pay-server.js';

const KEY = demoConfig.verifier.key;
const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm', replay: false, lockout: false });
let fake: Awaited<ReturnType<typeof startFakePayServer>>;
beforeAll(async () => {
  fake = await startFakePayServer();
});
afterAll(async () => {
  await fake.close();
  await verifier.close();
});
beforeEach(() => {
  fake.reset();
});

const check = (extra: Partial<PayCheckOptions> = {}) =>
  checkPayApi({
    baseUrl: fake.url,
    verifier,
    cardSession: 'AB12CD34',
    secrets: [KEY],
    newId: () => 'wpk-check-1',
    ...extra,
  } as PayCheckOptions);
const byOperation = (report: PayCheckReport) => Object.fromEntries(report.results.map((r) => [r.operation, r]));

/** A service that keeps to the document's fields but names the rest its own way. */
function scriptForeignService(checkout: unknown = { transactionId: 'trx-doc-1', bank_reference: 'r-1' }) {
  fake.script('/availability-info', {
    status: 200,
    body: { walletPayIsDefault: true, Providers: ['sbp'], provider_list_version: 3 },
  });
  fake.script('/availability-info/task', {
    status: 200,
    body: {
      walletPayIsDefault: false,
      TaskID: 'T-9',
      providers: [{ ProviderCode: 'sbp', available: 'no', message: 'closed for the night' }],
    },
  });
  fake.script('/checkout', { status: 200, body: checkout });
  fake.script('/status', { status: 200, body: { transactionId: 'trx-doc-1', status: 'processing', STATUS_CODE: 7 } });
  fake.script('/cancel', { status: 200, body: { transactionId: 'trx-doc-1', State: 'CANCELLED' } });
}

describe('checkPayApi', () => {
  it(
    'names every field and value the contract does not expect, per operation, against a service with other field ' +
      'names',
    async () => {
      scriptForeignService();
      const report = await check();
      const r = byOperation(report);
      expect(report.results.map((x) => [x.operation, x.verdict])).toEqual([
        ['availability', 'DIFFERS'],
        ['availabilityTask', 'DIFFERS'],
        ['checkout', 'DIFFERS'],
        ['status', 'DIFFERS'],
        ['cancel', 'FAIL'],
      ]);
      expect(r.availability!.unknown).toEqual([
        { field: 'Providers', value: '["sbp"]' },
        { field: 'provider_list_version', value: '3' },
      ]);
      expect(r.availability!.missing).toEqual(['providers']);
      expect(r.availabilityTask!.unknown).toEqual([
        { field: 'TaskID', value: '"T-9"' },
        { field: 'providers[0].ProviderCode', value: '"sbp"' },
      ]);
      expect(r.availabilityTask!.invalid).toEqual([
        { field: 'providers[0].available', value: '"no"', message: expect.any(String) },
      ]);
      expect(r.checkout!.unknown).toEqual([{ field: 'bank_reference', value: '"r-1"' }]);
      expect(r.checkout!.missing).toEqual(['requestId', 'status']);
      expect(r.status!.unknown).toEqual([{ field: 'STATUS_CODE', value: '7' }]);
      // A /cancel answer without the status the document names is unusable: FAIL, naming what it had instead.
      expect(r.cancel).toMatchObject({
        verdict: 'FAIL',
        httpStatus: 200,
        unknown: [{ field: 'State', value: '"CANCELLED"' }],
        failure: {
          code: 'PAY_PROTOCOL',
          errors: ['status: missing'],
          body: '{"transactionId":"trx-doc-1","State":"CANCELLED"}',
        },
      });
      expect(r.availability!.notes).toContain(
        "'Providers' looks like 'providers' in another spelling: the client matches names exactly",
      );
      expect(r.cancel!.notes).toContain(
        "the probe's invoice trx-doc-1 (1.00) may still wait in the app until it expires: do not confirm it",
      );
      expect(report).toMatchObject({ ok: false, transactionId: 'trx-doc-1', requestId: 'wpk-check-1', profile: 'kit' });
      expect(report.advice.join('\n')).toMatch(
        /lack the kit's own fields \(providers, .*\).*Consider profile 'document'/,
      );

      // The text report carries the same names and values, and the exchanges of what did not pass.
      const text = formatPayCheckReport(report).join('\n');
      for (const line of [
        'unknown  TaskID = "T-9"',
        'unknown  providers[0].ProviderCode = "sbp"',
        'unknown  State = "CANCELLED"',
        'invalid  providers[0].available = "no"',
        'unknown  STATUS_CODE = 7',
        'errors   status: missing',
      ])
        expect(text).toContain(line);
      expect(text).toMatch(/^FAIL +cancel +POST \/cancel +200 .*PROTOCOL$/m);
      expect(text).toContain('< 200  {"transactionId":"trx-doc-1","State":"CANCELLED"}');
    },
  );

  it(
    'fails a /checkout whose transactionId comes under another name, points at the look-alike, and skips what ' +
      'needs it',
    async () => {
      scriptForeignService({ TransactionID: 'trx-doc-2' });
      const report = await check();
      const r = byOperation(report);
      expect(r.checkout).toMatchObject({
        verdict: 'FAIL',
        unknown: [{ field: 'TransactionID', value: '"trx-doc-2"' }],
        failure: { code: 'PAY_PROTOCOL', errors: ['transactionId: missing'] },
      });
      expect(r.checkout!.notes).toContain(
        "'TransactionID' looks like 'transactionId' in another spelling: the client matches names exactly",
      );
      expect([r.status!.verdict, r.cancel!.verdict]).toEqual(['SKIPPED', 'SKIPPED']);
      expect(r.status!.notes).toEqual(['not run: /checkout gave no transactionId']);
      expect(fake.received.map((x) => x.path)).toEqual(['/availability-info', '/availability-info/task', '/checkout']);
      expect(report.ok).toBe(false);
    },
  );

  it(
    'passes a service that answers as the kit does, sending the tiny basket, ' + 'and reports progress per operation',
    async () => {
      const state = (status: string) => ({
        status: 200,
        body: {
          transactionId: 'trx-1',
          requestId: 'wpk-check-1',
          status,
          statusClass: status === 'created' ? 'transit' : 'unsuccessful',
          totalAmount: 100,
          refundedAmount: 0,
          updatedAt: '2026-11-23T10:00:00Z',
        },
      });
      const providers = { walletPayIsDefault: true, providers: [{ providerId: 'sbp', name: 'SBP', available: true }] };
      fake.script('/availability-info', { status: 200, body: providers });
      fake.script('/availability-info/task', { status: 200, body: { ...providers, taskId: 'task-1' } });
      fake.script('/checkout', {
        status: 200,
        body: { transactionId: 'trx-1', requestId: 'wpk-check-1', status: 'created' },
      });
      fake.script('/status', state('created'));
      fake.script('/cancel', state('cancelled'));
      const progress: PayCheckProgress[] = [];
      const report = await check({ onProgress: (p) => progress.push(p) });
      expect(report.results.map((x) => x.verdict)).toEqual(['PASS', 'PASS', 'PASS', 'PASS', 'PASS']);
      expect(report.ok).toBe(true);
      expect(progress.map((p) => (p.type === 'start' ? `start ${p.path}` : `done ${p.result.operation}`))).toEqual([
        'start /availability-info',
        'done availability',
        'start /availability-info/task',
        'done availabilityTask',
        'start /checkout',
        'done checkout',
        'start /status',
        'done status',
        'start /cancel',
        'done cancel',
      ]);
      expect(JSON.parse(fake.received[2]!.body.toString())).toEqual({
        requestId: 'wpk-check-1',
        cardSession: 'AB12CD34',
        discountAmount: 0,
        totalAmount: 100,
        items: [{ name: 'wallet-partner-kit pay check', article: 'WPK-CHECK', quantity: 1, price: 100 }],
      });
      expect(JSON.parse(fake.received[4]!.body.toString())).toEqual({ transactionId: 'trx-1' });
      expect(report.advice).toEqual([
        "Nothing to change: profile 'kit' and token header X-Wallet-Token fit this service.",
      ]);
    },
  );

  it('reports a refusal with its status and body, and never shows the token or the key', async () => {
    fake.script('/availability-info', { status: 401, body: { status: 'TOKEN_INVALID', errors: [] } });
    fake.script('/availability-info/task', {
      status: 400,
      body: { status: 'BAD_REQUEST', errors: ['offers: unknown field', `echo ${KEY}`] },
    });
    fake.script('/checkout', { status: 404, body: 'no route' });
    const report = await check({ tokenHeader: 'X-Partner-Signature' });
    const r = byOperation(report);
    expect(r.availability).toMatchObject({
      verdict: 'FAIL',
      httpStatus: 401,
      failure: { code: 'TOKEN_INVALID', body: '{"status":"TOKEN_INVALID","errors":[]}' },
    });
    expect(r.availabilityTask).toMatchObject({
      verdict: 'FAIL',
      httpStatus: 400,
      failure: { code: 'BAD_REQUEST', errors: ['offers: unknown field', 'echo <masked>'] },
    });
    expect(r.checkout).toMatchObject({ verdict: 'FAIL', httpStatus: 404, failure: { body: 'no route' } });
    expect(r.checkout!.notes).toContain(
      'no such path? the service may use another one for checkout (paths.checkout, --path checkout=/...)',
    );
    expect(report.advice.join('\n')).toMatch(/A signed call was refused as unauthorized.*sent: X-Partner-Signature/);
    expect(report.advice.join('\n')).toMatch(/A body was refused \(400\): profile 'document'/);
    // The token went out in the chosen header; the record has it masked, and the key appears nowhere.
    expect(fake.received[0]!.headers['x-partner-signature']).toMatch(/^ey/);
    expect(r.availability!.exchanges[0]!.request.headers['x-partner-signature']).toBe('<masked>');
    const everything = JSON.stringify(report) + formatPayCheckReport(report, { verbose: true }).join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(fake.received[0]!.headers['x-partner-signature']);
  });

  it("skips /cancel under profile document without a path for it, and uses the service's path when given", async () => {
    scriptForeignService();
    const skipped = byOperation(await check({ profile: 'document' }));
    expect(skipped.cancel).toMatchObject({ verdict: 'SKIPPED', exchanges: [] });
    expect(skipped.cancel!.notes[0]).toMatch(/no path for cancel.*--path cancel=/);
    fake.reset();
    scriptForeignService();
    fake.script('/payments/cancel', { status: 200, body: { transactionId: 'trx-doc-1', status: 'cancelled' } });
    const given = byOperation(await check({ profile: 'document', paths: { cancel: '/payments/cancel' } }));
    expect(given.cancel).toMatchObject({ verdict: 'PASS', path: '/payments/cancel' });
  });

  it('refuses bad options before sending anything', async () => {
    await expect(check({ cardSession: 'not\ta session' })).rejects.toThrow(ConfigError);
    await expect(check({ profile: 'other' as never })).rejects.toThrow(/profile: must be document or kit/);
    expect(fake.received).toEqual([]);
  });
});

describe('card sessions for pay check', () => {
  it('splits a barcode with the verifier, and says why one gives no card session', async () => {
    const barcode = drawBarcode({ ...demoConfig.verifier, cardNumber: '4000123412341234', cardSession: 'Sess1234' });
    expect(await cardSessionOfBarcode(verifier, barcode)).toBe('Sess1234');
    const other = drawBarcode({
      ...demoConfig.verifier,
      key: 'ab'.repeat(32),
      cardNumber: '4000123412341234',
      cardSession: 'Sess1234',
    });
    await expect(cardSessionOfBarcode(verifier, other)).rejects.toThrow(
      /barcode: no card session: its password does not match/,
    );
    await expect(cardSessionOfBarcode(verifier, 'XX;1;2;3')).rejects.toThrow(/its prefix is not the configured one/);
  });

  it('has a kit sandbox issue a card, and asks nothing of a URL that is not one', async () => {
    expect(await sandboxCardSession(fake.url)).toBeUndefined();
    fake.script('/openapi.json', { status: 200, body: { paths: { '/sandbox/cards': {} } } });
    fake.script('/sandbox/cards', {
      status: 200,
      body: { cardNumber: '4000', cardSession: 'S1', barcode: 'CM;4000;S1;1' },
    });
    expect(await sandboxCardSession(fake.url, { partnerId: 'p-1' })).toEqual({ cardNumber: '4000', cardSession: 'S1' });
    expect(JSON.parse(fake.received.at(-1)!.body.toString())).toEqual({ partnerId: 'p-1' });
    fake.script('/openapi.json', { status: 200, body: { paths: { '/sandbox/cards': {} } } });
    fake.script('/sandbox/cards', {
      status: 404,
      body: { status: 'NOT_FOUND', errors: ['partnerId: no such partner'] },
    });
    await expect(sandboxCardSession(fake.url)).rejects.toThrow(
      /the sandbox issued no card \(POST \/sandbox\/cards: 404 partnerId: no such partner\)/,
    );
  });
});
