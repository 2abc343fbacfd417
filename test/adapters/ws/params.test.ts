import { describe, expect, it } from 'vitest';
import { responseText } from '../../../adapters/ws/jsonrpc.js';
import { type BridgeMethodName, checkParams, InvalidParams } from '../../../adapters/ws/methods.js';
import { MAX_BARCODE_LENGTH, TokenRequest, VerifyRequest } from '../../../src/contracts/cashdesk.js';
import { validationErrors } from '../../../src/contracts/validation-errors.js';
import { z } from '@hono/zod-openapi';

const SCHEMAS: Partial<Record<BridgeMethodName, z.ZodType>> = {
  'barcode.verify': VerifyRequest,
  'token.get': TokenRequest,
  health: z.object({}).strict(),
};

/** Params as a till could send them: everything goes through JSON.parse, as on the wire. */
const WIRE_PARAMS = [
  'null',
  '{}',
  '{"fullBarcode":"CM;4000123412341234;AB12CD34;12345678"}',
  '{"fullBarcode":""}',
  `{"fullBarcode":"${'C'.repeat(MAX_BARCODE_LENGTH)}"}`,
  `{"fullBarcode":"${'C'.repeat(MAX_BARCODE_LENGTH + 1)}"}`,
  `{"fullBarcode":"${'é'.repeat(MAX_BARCODE_LENGTH)}"}`,
  '{"fullBarcode":42}',
  '{"fullBarcode":null}',
  '{"fullBarcode":{}}',
  '{"fullBarcode":"x","extra":1}',
  '{"extra":1,"fullBarcode":"x"}',
  '{"__proto__":{"fullBarcode":"x"}}',
  '{"__proto__":"x","fullBarcode":"x"}',
  '{"constructor":"x"}',
  '{"fullBarcode":"a","fullBarcode":"b"}',
  '{"requestData":"{}"}',
  '{"requestData":""}',
  '{"requestData":1}',
  '{"requestData":"{}","fullBarcode":"x"}',
  `{"requestData":"${'x'.repeat(100_000)}"}`,
  '{"verbose":true}',
  '{"":""}',
];

describe('checkParams', () => {
  // The hand-written fast check may only accept what the schema accepts, unchanged; every refusal
  // comes from the schema, with its messages.
  for (const method of Object.keys(SCHEMAS) as BridgeMethodName[]) {
    it(`agrees with the ${method} schema on every params shape`, () => {
      for (const text of [...WIRE_PARAMS, undefined]) {
        const params: unknown = text === undefined ? undefined : JSON.parse(text);
        const expected = SCHEMAS[method]!.safeParse(params ?? {});
        const checked = checkParams(method, params);
        const label = `${method} ${text?.slice(0, 60)}`;
        if (expected.success) {
          expect(checked, label).not.toBeInstanceOf(InvalidParams);
          expect(checked ?? {}, label).toEqual(expected.data);
        } else {
          expect(checked, label).toBeInstanceOf(InvalidParams);
          expect((checked as InvalidParams).errors, label).toEqual(validationErrors(expected.error));
        }
      }
    });
  }

  it('refuses positional params', () => {
    expect(checkParams('barcode.verify', ['CM;1;;1'])).toEqual(
      new InvalidParams(['params: must be an object with named members, not an array']),
    );
  });

  // Hostile input (attacks on the pay.* methods): a receipt is forwarded as given, so its depth and its text
  // are checked at the contract, before a worker's structured clone or JSON.stringify overflows the stack (-32603
  // before).
  it('refuses a pay.receipt receipt nested deeper than 64 levels, however deep, naming the field', () => {
    for (const depth of [65, 5_000, 100_000]) {
      const params: unknown = JSON.parse(
        `{"paymentId":"p1","receipt":{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}}`,
      );
      expect(checkParams('pay.receipt', params), `depth ${depth}`).toEqual(
        new InvalidParams(['receipt: nesting deeper than 64 levels']),
      );
    }
    const deepest = JSON.parse(`{"paymentId":"p1","receipt":{"a":${'['.repeat(63)}${']'.repeat(63)}}}`);
    expect(checkParams('pay.receipt', deepest)).not.toBeInstanceOf(InvalidParams);
  });

  it('refuses a pay.receipt receipt holding NUL or other control characters, in a value or a key', () => {
    expect(checkParams('pay.receipt', { paymentId: 'p1', receipt: { lines: [{ name: 'Cof\u0000fee' }] } })).toEqual(
      new InvalidParams(['receipt.lines.0.name: must not contain control characters']),
    );
    expect(checkParams('pay.receipt', { paymentId: 'p1', receipt: { 'to\u0001tal': 1 } })).toEqual(
      new InvalidParams(['receipt: keys must not contain control characters']),
    );
    expect(
      checkParams('pay.receipt', { paymentId: 'p1', receipt: { note: 'line 1\nline 2\ttab' } }),
    ).not.toBeInstanceOf(InvalidParams);
  });
});

describe('responseText', () => {
  it('writes exactly what JSON.stringify writes', () => {
    const responses = [
      {
        jsonrpc: '2.0' as const,
        id: 1,
        result: { resultCode: 'CARDSESSION_AVAILABLE', fullBarcode: 'CM;"\\\u2028;1', cardSession: null },
      },
      { jsonrpc: '2.0' as const, id: 'ретрай-"1"', result: { token: 'a.b' } },
      { jsonrpc: '2.0' as const, id: null, result: [] },
      { jsonrpc: '2.0' as const, id: -0, result: { at: new Date(0) } },
      { jsonrpc: '2.0' as const, id: 7, result: undefined },
      { jsonrpc: '2.0' as const, id: 8, result: { toJSON: () => undefined } },
      {
        jsonrpc: '2.0' as const,
        id: 9,
        error: { code: -32601, message: 'Method not found', data: { code: 'METHOD_NOT_FOUND' } },
      },
    ];
    for (const response of responses) expect(responseText(response)).toBe(JSON.stringify(response));
  });
});
