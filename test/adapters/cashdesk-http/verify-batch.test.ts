import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VERIFY_BATCH } from '../../../src/contracts/cashdesk.js';
import { StoreError } from '../../../src/errors.js';
import { barcode, CARD, request, startServer, TILL_KEY, type TestServer, type TestVerifier } from './client.js';

const PATH = '/v1/barcode/verify-batch';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** A 400 answer's errors, after checking it is one in the envelope. */
async function refused(body: unknown): Promise<string[]> {
  const reply = await request(server.url, PATH, { body });
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body.status).toBe('BAD_REQUEST');
  return reply.body.errors;
}

describe('POST /v1/barcode/verify-batch', () => {
  it(
    'answers { results } with one verification per barcode, in order, each ' + 'as the single route answers it',
    async () => {
      const other = barcode('4000999988887777');
      const reply = await request(server.url, PATH, { body: { fullBarcodes: [barcode(), 'XX;1;;2', other] } });
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body)).toEqual(['results']);
      expect(reply.body.results.map((r: { resultCode: string }) => r.resultCode)).toEqual([
        'CARDSESSION_AVAILABLE',
        'ANOTHER_INSTANCE',
        'CARDSESSION_AVAILABLE',
      ]);
      expect(reply.body.results[0]).toMatchObject({ cardNumber: CARD, fullBarcode: barcode() });
      // The same till asking again, alone: the first answer, repeated.
      const single = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: other } });
      expect(single.body).toEqual({ ...reply.body.results[2], repeated: true });
    },
  );

  it('counts each verification in the metrics and the request once under its route', async () => {
    const before = (await request(server.url, '/metrics')).text;
    const count = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    const prefixRefused =
      /wpk_barcode_verifications_total\{result_code="ANOTHER_INSTANCE",reason="PREFIX_MISMATCH"\} (\d+)/;
    const route = /wpk_http_requests_total\{route="\/v1\/barcode\/verify-batch",status="200"\} (\d+)/;
    expect(
      (await request(server.url, PATH, { body: { fullBarcodes: ['XX;1;;2', 'XX;1;;3', 'XX;1;;4'] } })).status,
    ).toBe(200);
    const after = (await request(server.url, '/metrics')).text;
    expect(count(after, prefixRefused) - count(before, prefixRefused)).toBe(3);
    expect(count(after, route) - count(before, route)).toBe(1);
  });

  it(`accepts ${MAX_VERIFY_BATCH} barcodes and refuses ${MAX_VERIFY_BATCH + 1} or none, whole`, async () => {
    const full = await request(server.url, PATH, {
      body: { fullBarcodes: Array.from({ length: MAX_VERIFY_BATCH }, (_, i) => `XX;${i};;1`) },
    });
    expect(full.status).toBe(200);
    expect(full.body.results).toHaveLength(MAX_VERIFY_BATCH);
    expect(
      await refused({ fullBarcodes: Array.from({ length: MAX_VERIFY_BATCH + 1 }, () => barcode('4000555566667777')) }),
    ).toEqual([`fullBarcodes: must hold at most ${MAX_VERIFY_BATCH} barcodes`]);
    expect(await refused({ fullBarcodes: [] })).toEqual(['fullBarcodes: must hold at least 1 barcode']);
    // Refused whole: the valid barcode of the oversized batch was not verified (and so not claimed).
    const alone = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: barcode('4000555566667777') },
    });
    expect(alone.body).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
    expect(alone.body.repeated).toBeUndefined();
  });

  it('refuses what is not an array of strings, naming the field or the item', async () => {
    for (const fullBarcodes of ['CM;1;;2', 42, null, { 0: 'CM;1;;2' }]) {
      expect(await refused({ fullBarcodes }), JSON.stringify(fullBarcodes)).toEqual([
        'fullBarcodes: must be an array of strings',
      ]);
    }
    expect(await refused({ fullBarcodes: ['XX;1;;2', 7, 'XX;1;;3', null] })).toEqual([
      'fullBarcodes.1: must be a string',
      'fullBarcodes.3: must be a string',
    ]);
    expect(await refused({ fullBarcodes: ['C'.repeat(16_385)] })).toEqual([
      'fullBarcodes.0: must be at most 16384 characters',
    ]);
    expect(await refused({})).toEqual(['fullBarcodes: must be an array of strings']);
    expect(await refused({ fullBarcodes: ['XX;1;;2'], fullBarcode: 'x' })).toEqual(['fullBarcode: unknown field']);
    for (const body of ['[]', '["XX;1;;2"]', '"XX;1;;2"', 'null', '7'])
      expect(await refused(body), body).toEqual([expect.stringMatching(/^body: /)]);
  });

  it(
    'answers 400 body: must be JSON for NUL bytes or other text outside the JSON, and verifies a barcode holding a ' +
      'NUL',
    async () => {
      expect(await refused('{"fullBarcodes":["XX;1;;2"]}\u0000')).toEqual(['body: must be JSON']);
      expect(await refused('\u0000{"fullBarcodes":["XX;1;;2"]}')).toEqual(['body: must be JSON']);
      expect(await refused('{"fullBarcodes":["XX;1;;2"')).toEqual(['body: must be JSON']);
      const reply = await request(server.url, PATH, { body: { fullBarcodes: ['CM\u0000;1;;2'] } });
      expect(reply.status).toBe(200);
      expect(reply.body.results[0]).toMatchObject({ resultCode: 'ANOTHER_INSTANCE', fullBarcode: 'CM\u0000;1;;2' });
    },
  );

  it('answers deeply nested JSON with a 400 in the envelope, not a crash', async () => {
    const depth = 100_000;
    const deep = `{"fullBarcodes":[${'['.repeat(depth)}${']'.repeat(depth)}]}`;
    expect(await refused(deep)).toEqual(['fullBarcodes.0: must be a string']);
    const deepObject = `{"fullBarcodes":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    expect(await refused(deepObject)).toEqual(['fullBarcodes: must be an array of strings']);
    // Still serving.
    expect((await request(server.url, PATH, { body: { fullBarcodes: ['XX;1;;2'] } })).status).toBe(200);
  });

  it('answers 413 for a body over the limit, declared or chunked, before verifying anything', async () => {
    const huge = JSON.stringify({ fullBarcodes: Array.from({ length: 80 }, () => 'C'.repeat(16_384)) });
    const declared = await request(server.url, PATH, { body: huge });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({
      status: 'PAYLOAD_TOO_LARGE',
      errors: ['body: must be at most 1048576 bytes'],
      requestId: expect.any(String),
    });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const response = await fetch(new URL(PATH, server.url), {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { authorization: `Bearer ${TILL_KEY}`, 'content-type': 'application/json' },
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      status: 'PAYLOAD_TOO_LARGE',
      errors: ['body: must be at most 1048576 bytes'],
      requestId: expect.any(String),
    });
  });

  it(
    'asks for the till key before reading the body, answers 415 for a body ' + 'not declared as JSON, 405 for GET',
    async () => {
      const anonymous = await request(server.url, PATH, { body: { fullBarcodes: ['XX;1;;2'] }, key: null });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({
        status: 'UNAUTHORIZED',
        errors: ['Invalid authorization token'],
        requestId: expect.any(String),
      });
      const viaQuery = await request(server.url, `${PATH}?key=${TILL_KEY}`, {
        body: { fullBarcodes: ['XX;1;;2'] },
        key: null,
      });
      expect(viaQuery.status).toBe(200);
      const text = await request(server.url, PATH, { body: '{"fullBarcodes":["XX;1;;2"]}', contentType: 'text/plain' });
      expect(text.status).toBe(415);
      const get = await request(server.url, PATH);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
    },
  );
});

describe('POST /v1/barcode/verify-batch when the verifier fails', () => {
  it('answers 503 STORE_UNAVAILABLE in the envelope when the shared store fails', async () => {
    const failing: TestVerifier = {
      backend: 'wasm',
      barcodeVerify: () => Promise.reject(new StoreError('redis down')),
      barcodeVerifyBatch: () => Promise.reject(new StoreError('redis down')),
      getToken: () => 'unused',
      close: async () => {},
    };
    const broken = await startServer({ verifier: failing });
    try {
      const reply = await request(broken.url, PATH, { body: { fullBarcodes: ['XX;1;;2'] } });
      expect(reply.status).toBe(503);
      expect(reply.body.status).toBe('STORE_UNAVAILABLE');
    } finally {
      await broken.close();
    }
  });
});
