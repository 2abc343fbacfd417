// Property tests of the cash desk server's two entry points, the real composition (src/server): whatever
// a till sends, as JSON or as bytes, the answer is never a 5xx or an internal error, nothing is logged at
// error level, and the server still answers a valid request afterwards. Sized by numRuns, not by time.
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { demoConfig, drawBarcode } from '../../../src/entries/index.js';
import { resolveServeConfig, startServer, type RunningServer } from '../../../src/entries/server.js';

const TILL_KEY = demoConfig.tills[0].key;
const records: Array<{ level: number; msg?: string }> = [];
const logger = pino(
  { level: 'info' },
  {
    write: (line: string) => {
      records.push(JSON.parse(line) as { level: number; msg?: string });
    },
  },
);
const ERROR_LEVEL = 50;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(resolveServeConfig(demoConfig, {}, { port: 0 }), logger);
});
afterAll(async () => {
  await server?.close();
});

function freshBarcode(card: string): string {
  const v = demoConfig.verifier;
  return drawBarcode({ ...v, cardNumber: card, cardSession: 'ZX81ZX81' });
}

/** JSON the verify and token bodies might hold, or not: their own fields with any values, or anything at all. */
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    { fullBarcode: fc.oneof(fc.string({ maxLength: 80 }), fc.jsonValue({ maxDepth: 2 })) },
    { requiredKeys: [] },
  ),
  fc.record(
    { requestData: fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 3 })) },
    { requiredKeys: [] },
  ),
);

const errorsOf = () => records.filter((r) => r.level >= ERROR_LEVEL);

describe('the cash desk server over HTTP', () => {
  const paths = fc.constantFrom('/v1/barcode/verify', '/v1/token');
  const contentTypes = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/octet-stream',
    undefined,
  );

  async function post(
    path: string,
    body: string | Uint8Array,
    contentType: string | undefined,
  ): Promise<{ status: number; text: string; type: string | null }> {
    const headers: Record<string, string> = { authorization: `Bearer ${TILL_KEY}` };
    if (contentType !== undefined) headers['content-type'] = contentType;
    const response = await fetch(new URL(path, server.url), { method: 'POST', headers, body: body as BodyInit });
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
  }

  function checkAnswer(answer: { status: number; text: string; type: string | null }): void {
    expect(answer.status, answer.text).toBeLessThan(500);
    if (answer.status >= 400 && answer.type?.startsWith('application/json')) {
      const body = JSON.parse(answer.text) as { status: unknown; errors: unknown };
      expect(typeof body.status).toBe('string');
      expect(Array.isArray(body.errors)).toBe(true);
    }
  }

  it('never answers 5xx to arbitrary JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(paths, jsonBody, contentTypes, async (path, body, contentType) => {
        checkAnswer(await post(path, JSON.stringify(body), contentType));
      }),
      { numRuns: 300 },
    );
    expect(errorsOf()).toEqual([]);
  });

  it('never answers 5xx to arbitrary bytes and text', async () => {
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.string({ unit: 'binary', maxLength: 256 }));
    await fc.assert(
      fc.asyncProperty(paths, bytes, contentTypes, async (path, body, contentType) => {
        checkAnswer(await post(path, body, contentType));
      }),
      { numRuns: 300 },
    );
    expect(errorsOf()).toEqual([]);
  });

  it('still verifies a valid barcode after all that', async () => {
    const answer = await post(
      '/v1/barcode/verify',
      JSON.stringify({ fullBarcode: freshBarcode('4000111122223333') }),
      'application/json',
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      resultCode: 'CARDSESSION_AVAILABLE',
      cardNumber: '4000111122223333',
    });
  });
});

describe('the cash desk server over the WebSocket bridge', () => {
  /** Frames a till might send: JSON-RPC shaped calls with any fields, batches, any JSON, any text, any bytes. */
  const call = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
      id: fc.oneof(
        fc.integer(),
        fc.string({ maxLength: 8 }).map((s) => `p-${s}`),
        fc.constant(null),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      method: fc.oneof(
        fc.constantFrom('barcode.verify', 'token.get', 'health', 'rpc.discover'),
        fc.string({ maxLength: 12 }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      params: fc.oneof(
        fc.record(
          { fullBarcode: fc.oneof(fc.string({ maxLength: 80 }), fc.jsonValue({ maxDepth: 2 })) },
          { requiredKeys: [] },
        ),
        fc.record(
          { requestData: fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 3 })) },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 3 }),
      ),
    },
    { requiredKeys: [] },
  );
  const frame = fc.oneof(
    call.map((c) => JSON.stringify(c)),
    fc.array(call, { maxLength: 7 }).map((c) => JSON.stringify(c)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 256 }),
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
  );

  /** Sends `frames` then a valid call on a fresh connection; resolves with every answer and how the socket ended. */
  async function exchange(frames: Array<string | Buffer>, card: string) {
    const ws = new WebSocket(server.wsUrl, 'wallet-pos.v1', { headers: { Authorization: `Bearer ${TILL_KEY}` } });
    const answers: unknown[] = [];
    let closed: { code: number; reason: string } | undefined;
    ws.on('message', (data) => answers.push(JSON.parse(String(data))));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const finalId = 'final-check';
    const done = new Promise<void>((resolve) => {
      ws.on('message', () => {
        if (answers.some((a) => (a as { id?: unknown }).id === finalId)) resolve();
      });
      ws.on('close', (code, reason) => {
        closed = { code, reason: reason.toString() };
        resolve();
      });
    });
    for (const f of frames) ws.send(f, { binary: Buffer.isBuffer(f) });
    // Frames are answered in order: once this call is answered, every frame before it has been.
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: finalId,
        method: 'barcode.verify',
        params: { fullBarcode: freshBarcode(card) },
      }),
    );
    await done;
    ws.close();
    const flat = answers.flatMap((a) => (Array.isArray(a) ? a : [a])) as Array<{
      id?: unknown;
      error?: { code: number; data?: { code?: string } };
    }>;
    return { flat, final: flat.find((a) => a.id === finalId), closed };
  }

  it(
    'never answers an internal error or drops the connection, whatever the frames, and answers a valid call after ' +
      'them',
    async () => {
      let n = 0;
      // Fewer invalid frames than the bridge's limit (DEFAULT_MAX_BAD_FRAMES, 10), past which it closes with 1008 by
      // design.
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { maxLength: 9 }), async (frames) => {
          const card = `40001111${String(++n).padStart(8, '0')}`;
          const { flat, final, closed } = await exchange(frames, card);
          expect(closed).toBeUndefined();
          expect(flat.filter((a) => a.error?.code === -32603 || a.error?.data?.code === 'INTERNAL')).toEqual([]);
          expect(final).toMatchObject({ result: { resultCode: 'CARDSESSION_AVAILABLE', cardNumber: card } });
        }),
        { numRuns: 150 },
      );
      expect(errorsOf()).toEqual([]);
    },
  );

  it('closes with 1008, not a crash, after too many invalid frames, and serves the next connection', async () => {
    const bad = fc.sample(
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
      { numRuns: 12, seed: 20261124 },
    );
    const { closed } = await exchange(bad, '4000111199990001');
    expect(closed).toMatchObject({ code: 1008, reason: 'too many invalid frames' });
    const next = await exchange([], '4000111199990002');
    expect(next.final).toMatchObject({ result: { resultCode: 'CARDSESSION_AVAILABLE' } });
    expect(errorsOf()).toEqual([]);
  });
});
