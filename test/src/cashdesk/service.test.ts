import { describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../../src/cashdesk/metrics.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillVerifications } from '../../../src/cashdesk/verifications.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier, generateBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';

const OLD_KEY = 'c0'.repeat(32);

function service() {
  const verifier = createVerifier({ ...BASE_CONFIG, previousKeys: [OLD_KEY], backend: 'wasm', clock: () => NOW });
  return new CashDeskService({ verifier, tills: new TillRegistry([{ id: 't', key: 'till-key-0123456789abcdef' }]) });
}

describe('CashDeskService metrics', () => {
  it('counts valid barcodes by the key that matched, so a retired key can be seen unused', async () => {
    const s = service();
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '1', at: NOW }));
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '2', at: NOW }));
    await s.verify(generateBarcode({ ...BASE_CONFIG, key: OLD_KEY, cardNumber: '3', at: NOW }));
    await s.verify('CM;4;;00000000');
    expect(await s.metrics.keyMatches.countOf({ key_index: '0' })).toBe(2);
    expect(await s.metrics.keyMatches.countOf({ key_index: '1' })).toBe(1);
    expect(await s.metrics.render()).toContain('wpk_barcode_key_matches_total{key_index="1"} 1');
  });

  it('puts the drift of each valid barcode in a histogram of steps', async () => {
    const s = service();
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '1', at: NOW - 30_000 }));
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '2', at: NOW }));
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '3', at: NOW + 30_000 }));
    const text = await s.metrics.render();
    expect(text).toContain('wpk_barcode_drift_steps_bucket{le="-2"} 0');
    expect(text).toContain('wpk_barcode_drift_steps_bucket{le="-1"} 1');
    expect(text).toContain('wpk_barcode_drift_steps_bucket{le="0"} 2');
    expect(text).toContain('wpk_barcode_drift_steps_bucket{le="1"} 3');
    expect(text).toContain('wpk_barcode_drift_steps_count 3');
    expect(text).toContain('wpk_barcode_drift_steps_sum 0');
  });
});

describe('CashDeskService.verifyBatchSync', () => {
  it('answers in order as single calls would, with the same metrics per verification', async () => {
    const batch = service();
    const single = service();
    const codes = [
      generateBarcode({ ...BASE_CONFIG, cardNumber: '1', at: NOW }),
      generateBarcode({ ...BASE_CONFIG, key: OLD_KEY, cardNumber: '2', at: NOW }),
      'CM;3;;00000000',
      generateBarcode({ ...BASE_CONFIG, cardNumber: '1', at: NOW }),
    ];
    const answers = await batch.verifyBatchSync(codes, 't');
    const expected = [];
    for (const code of codes) expected.push(await single.verifySync(code, 't'));
    expect(answers).toEqual(expected);
    expect(answers[3]).toMatchObject({ reason: 'OK', repeated: true });
    // Everything but the duration histogram's sums (timings) is the same.
    // The kit's series only: the process metrics (CPU, heap) move between two renders.
    const counts = (text: string) =>
      text
        .split('\n')
        .filter(
          (line) =>
            line.startsWith('wpk_') &&
            !line.startsWith('wpk_barcode_verify_duration_seconds_sum') &&
            !line.startsWith('wpk_barcode_verify_duration_seconds_bucket'),
        );
    expect(counts(await batch.metrics.render())).toEqual(counts(await single.metrics.render()));
    expect(await batch.metrics.render()).toContain('wpk_barcode_verify_duration_seconds_count 4');
  });
});

describe('CashDeskService options', () => {
  const tills = new TillRegistry([{ id: 't', key: 'till-key-0123456789abcdef' }]);

  it('refuses options with neither a verifier nor verifications (CONFIG_INVALID)', () => {
    expect(() => new CashDeskService({ tills })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('verifies through the verifications given, counting in their metrics', async () => {
    const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW });
    const metrics = new ServerMetrics();
    const s = new CashDeskService({ verifications: new TillVerifications({ verifier, metrics }), tills });
    await s.verify(generateBarcode({ ...BASE_CONFIG, cardNumber: '1', at: NOW }));
    expect(s.metrics).toBe(metrics);
    expect(await metrics.keyMatches.countOf({ key_index: '0' })).toBe(1);
  });
});
