import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { problemFor } from '../../../adapters/http-server/failures.js';
import { createBridge } from '../../../adapters/ws/index.js';
import { errorForException } from '../../../adapters/ws/errors.js';
import { problemOf } from '../../../adapters/cashdesk-http/counted-answer.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import {
  ERROR_CODES,
  type ErrorCode,
  KitError,
  PayError,
  PaymentSessionError,
  PaymentsError,
} from '../../../src/entries/errors.js';
import { createVerifier } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { RpcClient, RpcError } from '../../support/ws-client.js';

const silent = pino({ level: 'silent' });
const request = { method: 'POST', path: '/v1/test' };
const codes = Object.keys(ERROR_CODES) as ErrorCode[];

/** What each transport answers for `error`: the HTTP envelope and the bridge's error member. */
function answers(error: KitError) {
  const http = problemFor(error, silent, request);
  const rpc = errorForException(error, silent, 'test.method', 'rid-1');
  return { http: { status: http.httpStatus, code: http.status }, rpc: { code: rpc.code, dataCode: rpc.data.code } };
}

describe('ERROR_CODES', () => {
  it.each(codes)('answers %s with its status over HTTP and its number on the bridge', (code) => {
    const { http, jsonRpc } = ERROR_CODES[code];
    expect(answers(new KitError(code, `failed: ${code}`))).toEqual({
      http: { status: http, code },
      rpc: { code: jsonRpc, dataCode: code },
    });
  });

  it.each([
    new PayError('PAY_TIMEOUT', '/checkout: no answer'),
    new PayError('TOKEN_INVALID', 'the wallet token is not valid', { httpStatus: 401 }),
    new PaymentSessionError('OUTCOME_UNKNOWN', 'no answer even after recovery'),
    new PaymentsError('BARCODE_REFUSED', 'not a barcode with a card session'),
  ])('answers a payment refusal $code by the table, on the payments routes and the bridge', (error) => {
    const { http, jsonRpc } = ERROR_CODES[error.code];
    // The payments routes answer the code's status (adapters/cashdesk-http/payments.ts).
    expect(problemOf(error)).toMatchObject({ httpStatus: http, status: error.code });
    expect(answers(error).rpc).toEqual({ code: jsonRpc, dataCode: error.code });
  });

  it('holds no code that nothing in src/ or adapters/ raises or answers', () => {
    const root = resolve(import.meta.dirname, '..', '..', '..');
    const text = ['src', 'adapters']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .filter((file) => !file.endsWith(join('src', 'errors', 'codes.ts')))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = codes.filter((code) => !new RegExp(`['"\`]${code}['"\`]|\\b${code}:`).test(text));
    expect(unused).toEqual([]);
  });

  it('gives no two families the same client code', () => {
    for (const word of ['NETWORK', 'TIMEOUT', 'SERVER', 'PROTOCOL', 'NETWORK_ERROR', 'BAD_RESPONSE']) {
      expect(Object.hasOwn(ERROR_CODES, word), word).toBe(false);
    }
  });
});

describe('a closed verifier', () => {
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW });
  const till = { id: 'till-1', key: 'till-key-0123456789abcdef' };
  const service = new CashDeskService({ verifier, tills: new TillRegistry([till]) });
  const bridge = createBridge(service);
  let http: Awaited<ReturnType<typeof serveHttp>>;

  beforeAll(async () => {
    http = await serveHttp(createHttpApp(service));
    http.server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
    await verifier.close();
  });
  afterAll(async () => {
    await bridge.close();
    await http.close();
  });

  it('is VERIFIER_CLOSED, with the table status and number, over HTTP and over the bridge', async () => {
    const reply = await fetch(`${http.url}/v1/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${till.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect({ status: reply.status, body: await reply.json() }).toMatchObject({
      status: ERROR_CODES.VERIFIER_CLOSED.http,
      body: { status: 'VERIFIER_CLOSED' },
    });

    const { port } = http.server.address() as AddressInfo;
    const client = await RpcClient.connect(`ws://127.0.0.1:${port}/ws`, { key: till.key });
    try {
      const refusal = await client.call('token.get', { requestData: '{}' }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(RpcError);
      expect({ code: (refusal as RpcError).code, rpcCode: (refusal as RpcError).rpcCode }).toEqual({
        code: 'VERIFIER_CLOSED',
        rpcCode: ERROR_CODES.VERIFIER_CLOSED.jsonRpc,
      });
    } finally {
      await client.close();
    }
  });
});

/** The TypeScript files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
