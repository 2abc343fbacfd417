import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchIdTexts, requestIdText } from '../../../adapters/ws/raw-ids.js';
import type { RpcClient } from '../../support/ws-client.js';
import { clientPool, type BridgeServer, startBridgeServer } from './harness.js';

/** Sends `text` as one frame and resolves to the text of the next frame, unparsed: the digits are the point. */
function rawExchange(client: RpcClient, text: string): Promise<string> {
  return new Promise((resolve) => {
    client.ws.once('message', (data) => resolve(String(data)));
    client.ws.send(text);
  });
}

describe('raw id texts', () => {
  it('reads the id member of a request as written, not a nested one', () => {
    expect(requestIdText('{"jsonrpc":"2.0","params":{"id":2.0},"id":9007199254740993,"method":"health"}')).toBe(
      '9007199254740993',
    );
    expect(requestIdText(' { "id" : 1e3 , "method": "health"}')).toBe('1e3');
    expect(requestIdText('{"a":"\\"id\\":5","\\u0069d":-0.50}')).toBe('-0.50');
    expect(requestIdText('{"method":"health"}')).toBeUndefined();
  });

  it('reads each element of a batch, whatever sits between them', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(batchIdTexts(`[{"id":1.0,"x":[{"id":7}]}, ${deep}, "s", {"id":"a"}, {"id":18446744073709551615}]`)).toEqual([
      '1.0',
      undefined,
      undefined,
      '"a"',
      '18446744073709551615',
    ]);
  });
});

describe('bridge request ids', () => {
  let srv: BridgeServer;
  const pool = clientPool(() => srv.url);
  beforeAll(async () => {
    srv = await startBridgeServer();
  });
  afterEach(() => pool.closeAll());
  afterAll(async () => {
    await srv.close();
  });

  it('echoes a number id past 2^53 digit for digit when the call succeeds', async () => {
    const client = await pool.connect();
    for (const id of ['9007199254740993', '-9223372036854775808', '9223372036854775807', '1.0', '1e3', '1e999']) {
      const answer = await rawExchange(client, `{"jsonrpc":"2.0","id":${id},"method":"health"}`);
      expect(answer.startsWith(`{"jsonrpc":"2.0","id":${id},"result":{`), answer).toBe(true);
    }
  });

  it('echoes a number id past 2^53 digit for digit when the call fails', async () => {
    const client = await pool.connect();
    const unknown = await rawExchange(client, '{"jsonrpc":"2.0","id":9223372036854775807,"method":"no.such"}');
    expect(unknown).toMatch(/^\{"jsonrpc":"2\.0","id":9223372036854775807,"error":\{"code":-32601,/);
    const badParams = await rawExchange(
      client,
      '{"jsonrpc":"2.0","id":12345678901234567890,"method":"barcode.verify","params":{}}',
    );
    expect(badParams).toMatch(/^\{"jsonrpc":"2\.0","id":12345678901234567890,"error":\{"code":-32602,/);
    const invalid = await rawExchange(client, '{"jsonrpc":"1.0","id":9007199254740993,"method":"health"}');
    expect(invalid).toMatch(/^\{"jsonrpc":"2\.0","id":9007199254740993,"error":\{"code":-32600,/);
  });

  it('echoes each id of a batch as written, strings untouched', async () => {
    const client = await pool.connect();
    const answer = await rawExchange(
      client,
      '[{"jsonrpc":"2.0","id":9007199254740993,"method":"health"},' +
        '{"jsonrpc":"2.0","id":"9007199254740993","method":"x"},' +
        '{"jsonrpc":"2.0","id":7,"method":"health","params":{"id":1.5}}]',
    );
    const ids = [...answer.matchAll(/"jsonrpc":"2\.0","id":([^,]+),/g)].map((m) => m[1]);
    expect(ids).toEqual(['9007199254740993', '"9007199254740993"', '7']);
    expect(JSON.parse(answer)).toHaveLength(3);
  });
});
