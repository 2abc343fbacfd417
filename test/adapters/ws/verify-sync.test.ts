import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Verifier } from '../../../adapters/node/verifier-api.js';
import type { BarcodeVerification } from '../../../src/contracts/barcode.js';
import { KitError } from '../../../src/errors.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { RpcClient } from '../../support/ws-client.js';
import { type BridgeServer, capturingLogger, startBridgeServer, TILL } from './harness.js';

const RESULT: BarcodeVerification = {
  resultCode: 'VALIDATION_FAILED',
  totpCodeValid: false,
  cardNumber: null,
  cardSession: null,
  fullBarcode: 'x',
  reason: 'MALFORMED',
};

/** A service over a stub verifier answering `answer()` (plain, a promise, or a throw). */
function serviceAnswering(answer: () => BarcodeVerification | Promise<BarcodeVerification>): CashDeskService {
  const verifier: Verifier<BarcodeVerification | Promise<BarcodeVerification>> = {
    barcodeVerify: answer,
    barcodeVerifyBatch: () => {
      throw new Error('unused');
    },
    getToken: () => '',
    close: async () => undefined,
    backend: 'wasm',
  };
  return new CashDeskService({ verifier, tills: new TillRegistry([TILL]) });
}

const counted = (service: CashDeskService) =>
  service.metrics.verifications.countOf({ result_code: 'VALIDATION_FAILED', reason: 'MALFORMED' });

describe('CashDeskService#verifySync', () => {
  it('returns the result itself, counted, when the verifier is synchronous', async () => {
    const service = serviceAnswering(() => RESULT);
    expect(service.verifySync('x')).toBe(RESULT);
    expect(await counted(service)).toBe(1);
    expect(await service.metrics.render()).toContain('wpk_barcode_verify_duration_seconds_count 1');
  });

  it('returns a promise of the result, counted once it settles, when the verifier is asynchronous', async () => {
    const service = serviceAnswering(async () => RESULT);
    const pending = service.verifySync('x');
    expect(pending).toBeInstanceOf(Promise);
    expect(await counted(service)).toBe(0);
    expect(await pending).toBe(RESULT);
    expect(await counted(service)).toBe(1);
  });

  it('throws what a synchronous verifier throws, where verify still rejects with it', async () => {
    const closed = new KitError('VERIFIER_CLOSED', 'barcodeVerify: the verifier is closed');
    const service = serviceAnswering(() => {
      throw closed;
    });
    expect(() => service.verifySync('x')).toThrow(closed);
    await expect(service.verify('x')).rejects.toBe(closed);
    expect(await counted(service)).toBe(0);
  });

  it('leaves verify as it was: a promise of the result, with the same metrics', async () => {
    const service = serviceAnswering(() => RESULT);
    const pending = service.verify('x');
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe(RESULT);
    expect(await counted(service)).toBe(1);
  });
});

describe('bridge on the synchronous path', () => {
  let srv: BridgeServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await srv?.close();
    srv = undefined;
  });

  it('verifies through verifySync and gets a plain result from the in-memory verifier', async () => {
    srv = await startBridgeServer();
    const spy = vi.spyOn(srv.service, 'verifySync');
    const client = await RpcClient.connect(srv.url, { key: TILL.key });
    expect(await client.call('barcode.verify', { fullBarcode: 'CM;1;;1' })).toMatchObject({
      resultCode: 'VALIDATION_FAILED',
    });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.results[0]!.value).not.toBeInstanceOf(Promise);
    await client.close();
  });

  it('answers -32603 when verifySync throws synchronously, and keeps answering', async () => {
    const { logger, records } = capturingLogger('error');
    srv = await startBridgeServer({ logger });
    vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(() => {
      throw new Error('db password is hunter2');
    });
    const client = await RpcClient.connect(srv.url, { key: TILL.key });
    client.send({ jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: 'x' } });
    client.send({ jsonrpc: '2.0', id: 2, method: 'barcode.verify', params: { fullBarcode: 'x' } });
    const first = await client.next();
    expect(first).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error', data: { code: 'INTERNAL', requestId: expect.any(String) } },
    });
    expect(JSON.stringify(first)).not.toContain('hunter2');
    expect(await client.next()).toMatchObject({ id: 2, result: { resultCode: expect.any(String), fullBarcode: 'x' } });
    expect(records.filter((r) => r.msg === 'bridge call failed unexpectedly')).toHaveLength(1);
    await client.close();
  });
});
