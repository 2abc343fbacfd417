/**
 * A separate verifier process for the cross-process tests:
 *
 *   REDIS_URL=redis://… node --import tsx test/support/verify-child.ts <keyPrefix> <barcode>…
 *
 * Builds a RedisStore-backed verifier whose clock is fixed at NOW, verifies each
 * barcode in order, prints `{"results":[…]}` as one JSON line and exits 0. With
 * WAIT_FOR_GO=1 it first connects, prints `READY` and waits for a line on stdin,
 * so a test can release several processes at the same moment. On a failure it
 * prints `{"error":{name,code,message}}` and exits 1.
 */
import { createInterface } from 'node:readline';
import { createVerifier } from '../../src/entries/index.js';
import { RedisStore } from '../../src/stores/redis.js';
import { BASE_CONFIG, NOW } from './fixtures.js';

async function main(): Promise<void> {
  const [keyPrefix, ...barcodes] = process.argv.slice(2);
  const url = process.env.REDIS_URL;
  if (!url || !keyPrefix || barcodes.length === 0) {
    throw new TypeError('usage: REDIS_URL=… verify-child.ts <keyPrefix> <barcode>…');
  }
  const store = new RedisStore({ url, keyPrefix });
  const verifier = createVerifier({ ...BASE_CONFIG, clock: () => NOW, replay: store });
  try {
    if (process.env.WAIT_FOR_GO === '1') {
      await store.count('connect-probe'); // connected before the start signal
      process.stdout.write('READY\n');
      const lines = createInterface({ input: process.stdin });
      await new Promise<void>((resolve) => lines.once('line', () => resolve()));
      lines.close();
    }
    const results = [];
    for (const barcode of barcodes) results.push(await verifier.barcodeVerify(barcode));
    process.stdout.write(`${JSON.stringify({ results })}\n`);
  } finally {
    await verifier.close();
    await store.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const e = error as { name?: string; code?: string; message?: string };
    process.stdout.write(`${JSON.stringify({ error: { name: e?.name, code: e?.code, message: e?.message } })}\n`);
    process.exit(1);
  },
);
