import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarcodeVerification } from '../../../src/entries/index.js';
import { generateBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { haveService, REDIS_URL } from '../../support/services.js';

const CHILD = fileURLToPath(new URL('../../support/verify-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function barcodeFor(cardNumber: string): string {
  return generateBarcode({
    ...BASE_CONFIG,
    cardNumber,
    cardSession: 'AB12CD34',
    at: NOW,
  });
}

/** The same barcode with a different (wrong) password of the same length. */
function wrongPassword(barcode: string, bump: number): string {
  const cut = barcode.lastIndexOf(BASE_CONFIG.delimeter) + 1;
  const password = barcode.slice(cut);
  const wrong = String((Number(password) + bump) % 10 ** password.length).padStart(password.length, '0');
  return barcode.slice(0, cut) + wrong;
}

/** Children not yet exited, killed (by pid) after the tests should one hang. */
const running = new Set<ChildProcess>();

/** One verifier process: its results once it has exited. */
interface Child {
  process: ChildProcess;
  /** Resolves when the child prints READY (only with waitForGo). */
  ready: Promise<void>;
  /** Resolves with the child's results when it exits 0; rejects otherwise. */
  done: Promise<BarcodeVerification[]>;
  go(): void;
}

function startChild(keyPrefix: string, barcodes: string[], waitForGo = false): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, keyPrefix, ...barcodes], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL, WAIT_FOR_GO: waitForGo ? '1' : '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith('READY\n')) markReady();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin!.on('error', () => {}); // a child that already died: its failure is reported by `done`
  running.add(child);
  child.on('exit', () => running.delete(child));
  const done = new Promise<BarcodeVerification[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0) {
        reject(new Error(`verify-child exited ${code}: ${last}\n${stderr}`));
        return;
      }
      resolve((JSON.parse(last) as { results: BarcodeVerification[] }).results);
    });
  });
  done.catch(() => markReady()); // never leave a test waiting on a child that died
  return { process: child, ready, done, go: () => child.stdin!.end('go\n') };
}

describe.skipIf(!haveService('REDIS_URL', REDIS_URL, 'the cross-process replay and lockout tests'))(
  'replay and lockout across processes',
  () => {
    const prefix = `wpk-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
    let admin: Redis;

    beforeAll(() => {
      admin = new Redis(REDIS_URL!);
    });

    afterAll(async () => {
      for (const child of running) child.kill();
      if (admin === undefined) return;
      const leftover = await admin.keys(`${prefix}*`);
      if (leftover.length > 0) await admin.del(...leftover);
      await admin.quit();
    });

    it(
      'accepts a valid barcode in exactly one of two processes verifying it concurrently and refuses it as ' +
        'REPLAYED in the other',
      async () => {
        const cardNumber = '4000123412340001';
        const barcode = barcodeFor(cardNumber);
        const children = [startChild(prefix, [barcode], true), startChild(prefix, [barcode], true)];
        await Promise.all(children.map((c) => c.ready));
        for (const c of children) c.go(); // both released together, already connected
        const [[a], [b]] = (await Promise.all(children.map((c) => c.done))) as [
          BarcodeVerification[],
          BarcodeVerification[],
        ];

        const results = [a!, b!];
        const accepted = results.filter((r) => r.resultCode === 'CARDSESSION_AVAILABLE');
        const refused = results.filter((r) => r.resultCode === 'VALIDATION_FAILED');
        expect(accepted).toHaveLength(1);
        expect(accepted[0]).toMatchObject({ reason: 'OK', totpCodeValid: true, cardNumber, cardSession: 'AB12CD34' });
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({ reason: 'REPLAYED', totpCodeValid: false, cardNumber, cardSession: null });
        // The replay mark both processes raced for is in the shared Redis.
        expect(await admin.keys(`${prefix}replay:${cardNumber}:*`)).toHaveLength(1);
      },
    );

    it(
      'refuses a valid barcode as LOCKED in process B after 10 wrong ' + 'passwords for the card in process A',
      async () => {
        const lockedCard = '4000123412340002';
        const otherCard = '4000123412340003';
        const valid = barcodeFor(lockedCard);
        const failing = Array.from({ length: 10 }, (_, i) => wrongPassword(valid, i + 1));

        const inA = await startChild(prefix, failing).done;
        expect(inA).toHaveLength(10);
        for (const r of inA)
          expect(r).toMatchObject({ resultCode: 'VALIDATION_FAILED', reason: 'CODE_MISMATCH', cardNumber: lockedCard });
        expect(await admin.get(`${prefix}fail:${lockedCard}`)).toBe('10');

        const inB = await startChild(prefix, [valid, barcodeFor(otherCard)]).done;
        expect(inB[0]).toMatchObject({
          resultCode: 'VALIDATION_FAILED',
          reason: 'LOCKED',
          totpCodeValid: false,
          cardNumber: lockedCard,
        });
        // Process B works: another card's valid barcode is accepted there.
        expect(inB[1]).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', reason: 'OK', cardNumber: otherCard });
      },
    );
  },
);
