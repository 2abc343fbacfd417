import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateBarcode } from '../../../src/entries/index.js';
import { StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { clientPool, type BridgeServer, startBridgeServer } from './harness.js';

function validBarcode(cardNumber: string): string {
  return generateBarcode({ ...BASE_CONFIG, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

const verify = (id: number | undefined, fullBarcode: string) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'barcode.verify',
  params: { fullBarcode },
});

describe('Dispatcher: batch frames of barcode.verify', () => {
  let srv: BridgeServer;
  const pool = clientPool(() => srv.url);

  beforeAll(async () => {
    srv = await startBridgeServer({ maxBatch: 300 });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    return pool.closeAll();
  });
  afterAll(async () => {
    await srv.close();
  });

  it('runs the verify calls of a frame through one verifyBatchSync, in order, answering each with its id', async () => {
    const batch = vi.spyOn(srv.service, 'verifyBatchSync');
    const single = vi.spyOn(srv.service, 'verifySync');
    const client = await pool.connect();
    const codes = ['4000000000000101', '4000000000000102', '4000000000000103'].map(validBarcode);
    client.send([
      verify(1, codes[0]!),
      { jsonrpc: '2.0', id: 'bad', method: 'barcode.verify', params: { fullBarcode: 7 } },
      verify(2, codes[1]!),
      verify(undefined, codes[2]!),
    ]);
    const answer = (await client.next()) as Array<Record<string, any>>;
    expect(batch).toHaveBeenCalledTimes(1);
    expect(batch).toHaveBeenCalledWith(codes, 'till-1');
    expect(single).not.toHaveBeenCalled();
    // The notification (third verify) ran but is not answered; the invalid call keeps its place.
    expect(answer.map((a) => a.id)).toEqual([1, 'bad', 2]);
    expect(answer[0]).toMatchObject({ result: { resultCode: 'CARDSESSION_AVAILABLE', fullBarcode: codes[0] } });
    expect(answer[1]).toMatchObject({
      error: { code: -32602, data: { code: 'BAD_REQUEST', errors: ['fullBarcode: must be a string'] } },
    });
    expect(answer[2]).toMatchObject({ result: { resultCode: 'CARDSESSION_AVAILABLE', fullBarcode: codes[1] } });
    // The notification's barcode was verified: the same till asking again gets the repeated answer.
    expect(await client.call('barcode.verify', { fullBarcode: codes[2] })).toMatchObject({
      reason: 'OK',
      repeated: true,
    });
  });

  it(
    'runs another method between verify calls in its place: the verifications ' + 'before it, then it, then the rest',
    async () => {
      const spyBatch = vi.spyOn(srv.service, 'verifyBatchSync');
      const spySingle = vi.spyOn(srv.service, 'verifySync');
      const spyToken = vi.spyOn(srv.service, 'token');
      const client = await pool.connect();
      const codes = ['4000000000000201', '4000000000000202', '4000000000000203'].map(validBarcode);
      client.send([
        verify(1, codes[0]!),
        verify(2, codes[1]!),
        { jsonrpc: '2.0', id: 3, method: 'token.get', params: { requestData: '{}' } },
        verify(4, codes[2]!),
      ]);
      const answer = (await client.next()) as Array<Record<string, any>>;
      expect(answer.map((a) => a.id)).toEqual([1, 2, 3, 4]);
      expect(spyBatch).toHaveBeenCalledWith(codes.slice(0, 2), 'till-1');
      expect(spySingle).toHaveBeenCalledWith(codes[2], 'till-1');
      // Call order across the three spies: the batch of two, the token, the lone verify.
      const first = (spy: { mock: { invocationCallOrder: number[] } }) => spy.mock.invocationCallOrder[0]!;
      expect(first(spyBatch)).toBeLessThan(first(spyToken));
      expect(first(spyToken)).toBeLessThan(first(spySingle));
      expect(answer[3]).toMatchObject({ result: { reason: 'OK', fullBarcode: codes[2] } });
    },
  );

  it('answers every call of a batch with the store error when the shared store fails', async () => {
    vi.spyOn(srv.service, 'verifyBatchSync').mockImplementation(() => Promise.reject(new StoreError('redis down')));
    const client = await pool.connect();
    client.send([verify(1, 'XX;1;;2'), verify(2, 'XX;1;;3')]);
    const answer = (await client.next()) as Array<Record<string, any>>;
    expect(answer).toEqual(
      [1, 2].map((id) => ({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32002,
          message: expect.any(String),
          data: { code: 'STORE_UNAVAILABLE', requestId: expect.any(String) },
        },
      })),
    );
    // The connection still answers.
    vi.restoreAllMocks();
    expect(await client.call('barcode.verify', { fullBarcode: 'XX;1;;2' })).toMatchObject({
      resultCode: 'ANOTHER_INSTANCE',
    });
  });

  it(
    'answers hostile batch frames in JSON-RPC errors and keeps the connection: ' + 'deep nesting, NUL bytes, 300 calls',
    async () => {
      const client = await pool.connect();
      const depth = 100_000;
      client.send(`[${'['.repeat(depth)}${']'.repeat(depth)}]`);
      expect(await client.next()).toEqual([
        {
          jsonrpc: '2.0',
          id: null,
          error: expect.objectContaining({ code: -32600, data: expect.objectContaining({ code: 'INVALID_REQUEST' }) }),
        },
      ]);
      client.send(`[${JSON.stringify(verify(1, 'XX;1;;2'))}]\u0000`);
      expect(await client.next()).toMatchObject({ id: null, error: { code: -32700, data: { code: 'PARSE_ERROR' } } });
      client.send([verify(1, 'CM\u0000;1;;2')]);
      expect(await client.next()).toMatchObject([
        { id: 1, result: { resultCode: 'ANOTHER_INSTANCE', fullBarcode: 'CM\u0000;1;;2' } },
      ]);
      client.send(Array.from({ length: 300 }, (_, i) => verify(i, `XX;${i};;2`)));
      const answer = (await client.next()) as Array<Record<string, any>>;
      expect(answer).toHaveLength(300);
      expect(answer.every((a, i) => a.id === i && a.result.resultCode === 'ANOTHER_INSTANCE')).toBe(true);
    },
  );
});
