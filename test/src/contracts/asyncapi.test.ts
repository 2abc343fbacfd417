import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashDeskBridgeAsyncApiDocument } from '../../../adapters/ws/asyncapi.js';
import { KIT_ERROR_RPC_CODES, PAYMENT_RPC_CODES } from '../../../adapters/ws/errors.js';
import { JsonRpcErrorCode } from '../../../adapters/ws/jsonrpc.js';
import { BRIDGE_METHODS, isBridgeMethod, paramsSchemas } from '../../../adapters/ws/methods.js';
import { DEFAULT_MAX_BATCH } from '../../../adapters/ws/options.js';
import { SUBPROTOCOL } from '../../../adapters/ws/upgrade.js';
import { BRIDGE_PATH } from '../../../src/server/serve.js';
import { request, startServer, type TestServer } from '../../adapters/cashdesk-http/client.js';
import { clientPool, startBridgeServer, type BridgeServer } from '../../adapters/ws/harness.js';

const root = join(import.meta.dirname, '..', '..', '..');
const stored = () => readFileSync(join(root, 'openapi', 'asyncapi.json'), 'utf8');

type Refs = Array<{ $ref: string }>;
interface Operation {
  action: string;
  title: string;
  messages: Refs;
  reply?: { messages: Refs };
}
type Schema = { properties: Record<string, { pattern: string }> };
interface Doc {
  asyncapi: string;
  info: { version: string };
  servers: Record<string, { protocol: string; security: Refs }>;
  channels: Record<string, { address: string; bindings: { ws: { headers: Schema } } }>;
  operations: Record<string, Operation>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, Record<string, string>> };
}
const doc = cashDeskBridgeAsyncApiDocument() as Doc;
/** The operations a till calls, by method name (the batch is no method). */
const calls = Object.values(doc.operations).filter((o) => o.action === 'receive' && o.title !== 'batch');

describe('openapi/asyncapi.json', () => {
  it('holds the document as the code builds it (npm run build:openapi)', () => {
    expect(JSON.parse(stored())).toEqual(doc);
  });

  it('passes @asyncapi/parser with no error and no warning', async () => {
    const { document, diagnostics } = await new Parser().parse(stored());
    // Severity 0 is an error, 1 a warning; information ("AsyncAPI 3.1.0 exists") and hints are not findings.
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
    expect(
      document
        ?.operations()
        .all()
        .map((o) => o.id())
        .sort(),
    ).toEqual(Object.keys(doc.operations).sort());
  });
});

describe('the bridge in its AsyncAPI document', () => {
  it('documents every method the bridge dispatches, and none it does not', () => {
    const documented = calls.map((o) => o.title).sort();
    expect(documented).toEqual(Object.keys(paramsSchemas()).sort());
    expect(documented).toEqual([...BRIDGE_METHODS].sort());
    expect(documented.filter((m) => !isBridgeMethod(m))).toEqual([]);
  });

  it('gives each method a call, a result and an error message, the call with the method name as a constant', () => {
    for (const operation of calls) {
      const call = doc.components.schemas[`${pascal(operation.title)}Call`];
      expect(call.properties.method, operation.title).toEqual({ type: 'string', enum: [operation.title] });
      expect(
        operation.reply?.messages.map((m) => m.$ref.split('/').pop()),
        operation.title,
      ).toEqual([`${camel(operation.title)}Result`, `${camel(operation.title)}Error`, 'protocolError']);
    }
  });

  it('says the path, the subprotocol, both till key schemes and the batch limit', () => {
    const channel = Object.values(doc.channels)[0]!;
    expect(channel.address).toBe(BRIDGE_PATH);
    const offered = new RegExp(channel.bindings.ws.headers.properties['Sec-WebSocket-Protocol']!.pattern);
    expect([SUBPROTOCOL, `chat, ${SUBPROTOCOL}`, `${SUBPROTOCOL}, chat`].every((h) => offered.test(h))).toBe(true);
    expect(offered.test('wallet-pos.v10')).toBe(false);
    expect(doc.servers.demo!.protocol).toBe('ws');
    expect(doc.servers.demo!.security.map((s) => s.$ref)).toEqual([
      '#/components/securitySchemes/tillKey',
      '#/components/securitySchemes/tillTicket',
      '#/components/securitySchemes/tillKeyQuery',
    ]);
    expect(doc.components.securitySchemes.tillKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.tillKeyQuery).toMatchObject({ type: 'httpApiKey', in: 'query', name: 'key' });
    expect(doc.components.securitySchemes.tillTicket).toMatchObject({
      type: 'httpApiKey',
      in: 'query',
      name: 'ticket',
    });
    expect(doc.components.schemas.BatchCall).toMatchObject({ type: 'array', minItems: 1, maxItems: DEFAULT_MAX_BATCH });
  });

  it('lists every JSON-RPC error code the bridge answers with, and the data codes of kit errors numbered apart', () => {
    const kinds = Object.values(doc.components.schemas).filter(
      (s) => s.properties?.code?.enum !== undefined && s.properties?.data !== undefined,
    );
    const rpcCodes = new Set(kinds.map((s) => s.properties.code.enum[0] as number));
    const expected = [...Object.values(JsonRpcErrorCode), ...Object.values(PAYMENT_RPC_CODES)];
    expect(expected.filter((code) => !rpcCodes.has(code))).toEqual([]);
    const dataCodes = new Set(kinds.flatMap((s) => (s.properties.data.properties.code.enum ?? []) as string[]));
    expect(Object.keys(KIT_ERROR_RPC_CODES).filter((code) => !dataCodes.has(code))).toEqual([]);
    const sample = [
      'PARSE_ERROR',
      'BATCH_TOO_LARGE',
      'METHOD_NOT_FOUND',
      'BAD_REQUEST',
      'INTERNAL',
      'PAYMENT_NOT_FOUND',
      'SESSION_STATE',
      'CARD_SESSION_INVALID',
    ];
    expect(sample.filter((code) => !dataCodes.has(code))).toEqual([]);
  });

  it('describes pay.sessionUpdated as a notification the server sends, with seq', () => {
    const notification = doc.operations.paySessionUpdated!;
    expect(notification).toMatchObject({ action: 'send', title: 'pay.sessionUpdated' });
    expect(doc.components.schemas.PaySessionUpdatedNotification.properties.params).toEqual({
      $ref: '#/components/schemas/SessionUpdate',
    });
    expect(doc.components.schemas.SessionUpdate.properties.seq).toMatchObject({ type: 'integer' });
  });
});

describe('the bridge against its AsyncAPI document', () => {
  let srv: BridgeServer;
  const pool = clientPool(() => srv.url);
  beforeAll(async () => {
    srv = await startBridgeServer();
  });
  afterAll(async () => {
    await pool.closeAll();
    await srv.close();
  });

  it('dispatches every documented method (its params schema refuses, not METHOD_NOT_FOUND), not others', async () => {
    const client = await pool.connect();
    // An unknown member: every method's params schema is strict, so each documented method is found and refuses it.
    client.send([
      ...calls.map((o, id) => ({ jsonrpc: '2.0', id, method: o.title, params: { undocumented: 1 } })),
      { jsonrpc: '2.0', id: 'other', method: 'pay.undocumented', params: {} },
    ]);
    type Failure = { id: number | string; error: { code: number; data: { code: string } } };
    const answers = (await client.next()) as Failure[];
    expect(answers.slice(0, -1).map((a) => [calls[a.id as number]!.title, a.error.data.code])).toEqual(
      calls.map((o) => [o.title, 'BAD_REQUEST']),
    );
    expect(answers.at(-1)).toMatchObject({ id: 'other', error: { code: JsonRpcErrorCode.MethodNotFound } });
  });
});

describe('GET /asyncapi.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves the document without a key, with the server version', async () => {
    const reply = await request(server.url, '/asyncapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(cashDeskBridgeAsyncApiDocument('9.9.9'));
  });
});

function camel(method: string): string {
  return method.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
}
function pascal(method: string): string {
  const key = camel(method);
  return key[0]!.toUpperCase() + key.slice(1);
}
