import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonRpcErrorCode } from '../../../adapters/ws/index.js';
import { MAX_BARCODE_LENGTH } from '../../../src/contracts/cashdesk.js';
import { generateBarcode } from '../../../src/entries/index.js';
import { StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { RpcClient, RpcError } from '../../support/ws-client.js';
import {
  clientPool,
  type BridgeServer,
  capturingLogger,
  eventually,
  ORDERED_TILL,
  startBridgeServer,
  TILL,
} from './harness.js';

function validBarcode(cardNumber = '4000123412341234'): string {
  return generateBarcode({ ...BASE_CONFIG, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

describe('bridge calls', () => {
  let srv: BridgeServer;
  const pool = clientPool(() => srv.url);
  const connect = pool.connect;

  beforeAll(async () => {
    srv = await startBridgeServer({ maxBatch: 5 });
  });
  afterEach(() => pool.closeAll());
  afterAll(async () => {
    await srv.close();
  });

  it('answers barcode.verify with the verification result', async () => {
    const client = await connect();
    const fullBarcode = validBarcode('4000000000000001');
    expect(client.ws.protocol).toBe('wallet-pos.v1');
    expect(await client.call('barcode.verify', { fullBarcode })).toEqual({
      resultCode: 'CARDSESSION_AVAILABLE',
      totpCodeValid: true,
      cardNumber: '4000000000000001',
      cardSession: 'AB12CD34',
      fullBarcode,
      reason: 'OK',
      keyIndex: 0,
      driftSteps: 0,
      bonusAvailable: true,
    });
  });

  it('answers token.get with { token } and health with the service health', async () => {
    const client = await connect();
    expect(await client.call('token.get', { requestData: '{"requestId":"r-1"}' })).toEqual({
      token: expect.stringMatching(/^[\w-]+\.\.[\w-]{43}$/),
    });
    expect(await client.call('health')).toMatchObject({ status: 'ok', backend: 'wasm' });
    expect(await client.call('health', {})).toMatchObject({ status: 'ok' });
  });

  it('answers a batch in request order, with an error per invalid entry and nothing for notifications', async () => {
    const client = await connect();
    const fullBarcode = validBarcode('4000000000000002');
    client.send([
      { jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode } },
      { foo: 'bar' },
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: 'x', method: 'no.such' },
      { jsonrpc: '2.0', id: 3, method: 'token.get', params: { requestData: '{}' } },
    ]);
    const answer = (await client.next()) as Array<Record<string, any>>;
    expect(answer).toHaveLength(4);
    expect(answer[0]).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { resultCode: 'CARDSESSION_AVAILABLE', fullBarcode },
    });
    expect(answer[1]).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid Request', data: { code: 'INVALID_REQUEST' } },
    });
    expect(answer[2]).toMatchObject({ id: 'x', error: { code: -32601, message: 'Method not found' } });
    expect(answer[3]).toMatchObject({ id: 3, result: { token: expect.any(String) } });
  });

  it('sends nothing back for a notification or a batch of notifications only', async () => {
    const client = await connect();
    client.send({ jsonrpc: '2.0', method: 'health' });
    client.send([
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', method: 'no.such' },
    ]);
    // Frames are answered in order: an answer to a notification would come before this call's.
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
    expect(await client.silentFor(0)).toBe(true);
  });

  it('refuses an empty batch and a batch over maxBatch whole, with one -32600', async () => {
    const client = await connect();
    client.send([]);
    expect(await client.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request',
        data: { code: 'INVALID_REQUEST', errors: ['batch: must not be empty'], requestId: expect.any(String) },
      },
    });
    client.send(Array.from({ length: 6 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' })));
    expect(await client.next()).toMatchObject({
      id: null,
      error: { code: -32600, data: { code: 'BATCH_TOO_LARGE', errors: ['batch: must hold at most 5 calls, got 6'] } },
    });
  });

  it('echoes string, number and null ids exactly', async () => {
    const client = await connect();
    for (const id of ['abc', '', 'ретрай-1', 42, 0, -7, 1.5, 9007199254740991, null]) {
      client.send({ jsonrpc: '2.0', id, method: 'health' });
      expect(await client.next(), String(id)).toMatchObject({ jsonrpc: '2.0', id, result: { status: 'ok' } });
    }
  });

  it('refuses ids that cannot be echoed exactly (objects, booleans, numbers beyond 2^53) with id null', async () => {
    const client = await connect();
    for (const id of [{ a: 1 }, true, [1], 2 ** 60]) {
      client.send({ jsonrpc: '2.0', id, method: 'health' });
      expect(await client.next()).toMatchObject({
        id: null,
        error: { code: -32600, data: { errors: [expect.stringMatching(/^id: /)] } },
      });
    }
  });

  it('answers -32700 with id null to text that is not JSON', async () => {
    const client = await connect();
    client.send('{"jsonrpc": "2.0", "method": "health", "id": 1');
    expect(await client.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error', data: { code: 'PARSE_ERROR', requestId: expect.any(String) } },
    });
  });

  it('answers -32600 to a wrong jsonrpc version, echoing a valid id', async () => {
    const client = await connect();
    client.send({ jsonrpc: '1.0', id: 'v1', method: 'health' });
    expect(await client.next()).toMatchObject({
      id: 'v1',
      error: { code: -32600, data: { errors: ['jsonrpc: must be "2.0"'] } },
    });
    client.send({ jsonrpc: '2.0', id: 2, params: {} });
    expect(await client.next()).toMatchObject({
      id: 2,
      error: { code: -32600, data: { errors: ['method: must be a string'] } },
    });
    client.send({ jsonrpc: '2.0', id: 3, method: 'health', params: 'x' });
    expect(await client.next()).toMatchObject({
      id: 3,
      error: { code: -32600, data: { errors: ['params: must be an object or an array'] } },
    });
  });

  it('answers -32601 to an unknown method, inherited object keys included', async () => {
    const client = await connect();
    for (const method of ['no.such', 'toString', '__proto__', 'constructor', '']) {
      await expect(client.call(method), method).rejects.toMatchObject({
        rpcCode: -32601,
        code: 'METHOD_NOT_FOUND',
        message: 'Method not found',
      });
    }
  });

  it('answers -32602 with data.errors when params are invalid', async () => {
    const client = await connect();
    const cases: Array<[string, unknown, string[]]> = [
      ['barcode.verify', { fullBarcode: 42 }, ['fullBarcode: must be a string']],
      ['barcode.verify', undefined, ['fullBarcode: must be a string']],
      ['barcode.verify', { fullBarcode: 'CM;1;;1', extra: 1 }, ['extra: unknown field']],
      ['barcode.verify', ['CM;1;;1'], ['params: must be an object with named members, not an array']],
      [
        'barcode.verify',
        { fullBarcode: 'C'.repeat(MAX_BARCODE_LENGTH + 1) },
        [`fullBarcode: must be at most ${MAX_BARCODE_LENGTH} characters`],
      ],
      ['token.get', {}, ['requestData: must be a string: the JSON text of the request body']],
      ['health', { verbose: true }, ['verbose: unknown field']],
    ];
    for (const [method, params, errors] of cases) {
      const error = await client.call(method, params).catch((e: unknown) => e);
      expect(error, `${method} ${JSON.stringify(params)?.slice(0, 40)}`).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({
        rpcCode: -32602,
        message: 'Invalid params',
        data: { code: 'BAD_REQUEST', errors },
      });
    }
  });

  it(
    'answers token.get on non-JSON text with -32001 and data.code ' + 'REQUEST_DATA_INVALID, without echoing the text',
    async () => {
      const client = await connect();
      client.send({ jsonrpc: '2.0', id: 't', method: 'token.get', params: { requestData: '{"secretCardNumber":' } });
      const answer = (await client.next()) as { error: { code: number; message: string; data: unknown } };
      expect(answer).toMatchObject({
        id: 't',
        error: { code: JsonRpcErrorCode.RequestDataInvalid, data: { code: 'REQUEST_DATA_INVALID' } },
      });
      expect(answer.error.code).toBe(-32001);
      expect(answer.error.message).not.toContain('secretCardNumber');
    },
  );

  it('treats a binary frame as an invalid request', async () => {
    const client = await connect();
    client.send(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'health' })));
    expect(await client.next()).toMatchObject({ id: null, error: { code: -32600, data: { code: 'BINARY_FRAME' } } });
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
  });

  it('answers a quick call while an earlier slow one still waits', async () => {
    const client = await connect();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const verify = srv.service.verify.bind(srv.service);
    const spy = vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(async (code) => {
      await gate;
      return verify(code);
    });
    try {
      client.send({ jsonrpc: '2.0', id: 'slow', method: 'barcode.verify', params: { fullBarcode: 'CM;1;;1' } });
      client.send({ jsonrpc: '2.0', id: 'fast', method: 'health' });
      // The slow call is released only once the quick one has been answered: nothing else could let it go.
      expect(await client.next()).toMatchObject({ id: 'fast', result: { status: 'ok' } });
      release();
      expect(await client.next()).toMatchObject({ id: 'slow' });
    } finally {
      spy.mockRestore();
    }
  });

  it('answers in the order the frames arrived for a till with orderedAnswers', async () => {
    const client = await connect({ key: ORDERED_TILL.key });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const verify = srv.service.verify.bind(srv.service);
    const health = srv.service.health.bind(srv.service);
    const spies = [
      vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(async (code) => {
        await gate;
        return verify(code);
      }),
      // The slow call is let go only while the quick one is being answered, so the quick one is ready first.
      vi.spyOn(srv.service, 'health').mockImplementationOnce(() => {
        release();
        return health();
      }),
    ];
    try {
      client.send({ jsonrpc: '2.0', id: 'slow', method: 'barcode.verify', params: { fullBarcode: 'CM;1;;1' } });
      client.send({ jsonrpc: '2.0', id: 'fast', method: 'health' });
      expect(await client.next()).toMatchObject({ id: 'slow' });
      expect(await client.next()).toMatchObject({ id: 'fast' });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('survives hostile frames and keeps answering', async () => {
    const client = await connect();
    const hostile = [
      '['.repeat(300_000),
      `${'['.repeat(300_000)}${']'.repeat(300_000)}`,
      '{"jsonrpc":"2.0","id":1,"method":"barcode.verify","params":{"__proto__":{"fullBarcode":"x"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"health","params":{"constructor":{"prototype":{"polluted":true}}}}',
      `{"jsonrpc":"2.0","id":3,"method":"barcode.verify","params":{"fullBarcode":` +
        `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}`,
      '1e999',
      '"just a string"',
      'null',
      'true',
      '\u0000',
    ];
    for (const frame of hostile) {
      client.send(frame);
      const answer = await client.next();
      // A nested array is a batch of one non-request: its answer is an array of one error.
      expect(Array.isArray(answer) ? answer[0] : answer, frame.slice(0, 40)).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number) },
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
  });

  it('counts calls in wpk_bridge_calls_total by method and outcome', async () => {
    const client = await connect();
    const before = await srv.service.metrics.bridgeCalls.countOf({ method: 'health', outcome: 'ok' });
    await client.call('health');
    expect(await srv.service.metrics.bridgeCalls.countOf({ method: 'health', outcome: 'ok' })).toBe(before + 1);
    await client.call('nope').catch(() => undefined);
    expect(
      await srv.service.metrics.bridgeCalls.countOf({ method: 'other', outcome: 'METHOD_NOT_FOUND' }),
    ).toBeGreaterThan(0);
  });
});

describe('bridge limits', () => {
  it('closes with 1009 on a frame over maxPayloadBytes', async () => {
    const srv = await startBridgeServer({ maxPayloadBytes: 1024 });
    try {
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      client.send({ jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: 'C'.repeat(2048) } });
      expect(await client.closed).toMatchObject({ code: 1009 });
      await eventually(() => srv.bridge.clients === 0, 15_000, 'connection gone');
    } finally {
      await srv.close();
    }
  });

  it('closes with 1008 after maxBadFrames invalid frames, answering each of them first', async () => {
    const { logger, records } = capturingLogger('warn');
    const srv = await startBridgeServer({ maxBadFrames: 3, logger });
    try {
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      client.send('not json');
      client.send({ jsonrpc: '2.0', id: 1, method: 'no.such' }); // well-formed: does not count
      client.send({ jsonrpc: '2.0', id: 2, method: 'token.get', params: {} }); // well-formed: does not count
      client.send(Buffer.from([1, 2, 3]));
      client.send([{ nope: true }]);
      const codes = [];
      for (let i = 0; i < 5; i++) {
        const answer = (await client.next()) as { error: { code: number } } | Array<{ error: { code: number } }>;
        codes.push(Array.isArray(answer) ? answer[0]!.error.code : answer.error.code);
      }
      expect(codes).toEqual([-32700, -32601, -32602, -32600, -32600]);
      expect(await client.closed).toEqual({ code: 1008, reason: 'too many invalid frames' });
      expect(records.some((r) => r.msg === 'too many invalid frames: closing' && r.till === 'till-1')).toBe(true);
    } finally {
      await srv.close();
    }
  });

  it('answers -32603 Internal error without details when a method throws unexpectedly, and logs it', async () => {
    const { logger, records } = capturingLogger('error');
    const srv = await startBridgeServer({ logger });
    try {
      vi.spyOn(srv.service, 'verifySync').mockRejectedValueOnce(new Error('db password is hunter2'));
      vi.spyOn(srv.service, 'health').mockImplementationOnce(() => {
        throw new TypeError('boom');
      });
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      client.send({ jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: 'x' } });
      const answer = await client.next();
      expect(answer).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'Internal error', data: { code: 'INTERNAL', requestId: expect.any(String) } },
      });
      expect(JSON.stringify(answer)).not.toContain('hunter2');
      await expect(client.call('health')).rejects.toMatchObject({ rpcCode: -32603 });
      expect(records.filter((r) => r.level === 50 && r.msg === 'bridge call failed unexpectedly')).toHaveLength(2);
      expect(await client.call('health')).toMatchObject({ status: 'ok' });
      await client.close();
    } finally {
      await srv.close();
    }
  });

  it('maps STORE_UNAVAILABLE to -32002 with the kit message', async () => {
    const srv = await startBridgeServer();
    try {
      vi.spyOn(srv.service, 'verifySync').mockRejectedValueOnce(new StoreError('replay store unreachable'));
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      await expect(client.call('barcode.verify', { fullBarcode: 'x' })).rejects.toMatchObject({
        rpcCode: -32002,
        code: 'STORE_UNAVAILABLE',
        message: 'replay store unreachable',
      });
      await client.close();
    } finally {
      await srv.close();
    }
  });
});
