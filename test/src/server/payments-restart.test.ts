import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/index.js';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';
import { uniqueSchema } from '../../support/databases.js';
import { BASKET, PARTNER_ID, Till } from '../../support/pay-server.js';
import { LIVE_KEY, LIVE_TILL_KEY, liveConfig } from '../../support/live-config.js';
import { DATABASE_URL, haveService } from '../../support/services.js';
import { paySandboxCases, type PaySandbox } from '../pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const root = join(import.meta.dirname, '..', '..', '..');
const [pglite] = paySandboxCases('serve restarts');

interface ServeChild {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  output: { text: string };
}

/**
 * A `serve` child process; resolves once it logs that it listens (rejects with its output if it exits or never does).
 */
async function serve(configPath: string, args: string[]): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/src/cli/main.js'), 'serve', '--config', configPath, '--port', '0', ...args],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '' },
    },
  );
  const output = { text: '' };
  try {
    const [line] = await waitForOutput(child, output, /^.*"cash desk server listening".*$/m, 'the listening line');
    const url = JSON.parse(line).url as string;
    return { child, url, wsUrl: `${url.replace(/^http/, 'ws')}/ws`, output };
  } catch (error) {
    await killed(child);
    throw error;
  }
}

/** Kills the child with SIGKILL; resolves once it has exited (at once when it already had). */
function killed(child: ChildProcess): Promise<void> {
  // A child killed by a signal keeps `exitCode` null for good (`signalCode` tells): waiting for an `exit` that already
  // came is what hung this test's cleanup for its whole timeout, after every assertion had passed.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const databases: Array<{
  name: string;
  args(dir: string): string[];
  database?: () => { url: string; schema: string };
}> = [{ name: '--data DIR (PGlite)', args: (dir) => ['--data', join(dir, 'data')] }];
if (haveService('DATABASE_URL', DATABASE_URL, 'serve kill -9 on PostgreSQL')) {
  const schema = uniqueSchema('serve');
  databases.push({ name: 'PostgreSQL', args: () => [], database: () => ({ url: DATABASE_URL!, schema }) });
}

describe.each(databases)('serve killed with -9 mid-payment, with $name', ({ args, database }) => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let dir: string;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    await sb.sim.partner({ partnerId: PARTNER_ID, key: LIVE_KEY, webhookUrl: null });
    dir = mkdtempSync(join(tmpdir(), 'wpk-serve-'));
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
    const db = database?.();
    if (db) {
      const conn = await openDatabase({ url: db.url });
      await conn.exec(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`).finally(() => conn.close());
    }
  });

  it(
    'resumes the open payment after a restart (the same /checkout, same requestId, then /status): the till sees ' +
      'where it stands, the payment succeeds once',
    async () => {
      const configPath = join(dir, 'config.json');
      writeFileSync(
        configPath,
        JSON.stringify({
          ...liveConfig(),
          pay: { url: sb.url, pollIntervalMs: 20, adoptIntervalMs: 50 },
          ...(database ? { database: database() } : {}),
        }),
      );
      const children: ChildProcess[] = [];
      try {
        const first = await serve(configPath, args(dir));
        children.push(first.child);
        const card = await sb.sim.issueCard({ walletPayIsDefault: true });
        // The checkout reaches the sandbox and waits there: the server dies while it is in flight. Should the kill come
        // later than the delay (a very loaded machine), the payment is `pending` when it dies, and the same assertions
        // hold.
        await sb.sim.fault('/checkout', 'delay', 1, 1_000);
        const till = await Till.connect(first.wsUrl, LIVE_TILL_KEY);
        const checkoutSent = waitForOutput(first.child, { text: '' }, /"path":"\/checkout"/, 'the /checkout request');
        void till
          .call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'crash-1' })
          .catch(() => {});
        await checkoutSent;
        await killed(first.child);
        await till.rpc.closed; // the connection died with the server, the call unanswered

        const second = await serve(configPath, args(dir));
        children.push(second.child);
        const back = await Till.connect(second.wsUrl, LIVE_TILL_KEY);
        try {
          const pending = await back.until((u) => u.paymentId === 'crash-1' && u.phase === 'pending');
          // On reconnection the till is first told the phase the payment stands in: never back to the start.
          expect(['checkout', 'pending']).toContain(back.of('crash-1')[0]!.phase);
          expect(pending.transactionId).toBeDefined();
          expect(await sb.sim.invoices(card.cardNumber)).toEqual([
            expect.objectContaining({ transactionId: pending.transactionId }),
          ]);
          await sb.sim.confirm(pending.transactionId!);
          expect(await back.until((u) => u.paymentId === 'crash-1' && u.phase === 'succeeded')).toMatchObject({
            transactionId: pending.transactionId,
          });
          expect(await back.call('pay.get', { paymentId: 'crash-1' })).toMatchObject({
            phase: 'succeeded',
            status: 'succeeded',
          });
          expect((await sb.sim.transaction(pending.transactionId!)).status).toBe('succeeded');
          expect(await sb.sim.invoices(card.cardNumber)).toEqual([]);
          // Every transaction of the card: one, whichever of the two /checkout requests (same requestId) ran first.
          const { rows } = await sb.running.sandbox.context.db.query<{ n: number }>(
            'SELECT COUNT(*)::int AS n FROM pay_transactions WHERE card_number = $1',
            [card.cardNumber],
          );
          expect(rows[0]!.n).toBe(1);
        } finally {
          await back.close();
        }
      } finally {
        for (const child of children) await killed(child);
      }
    },
    childTestTimeout(2),
  );
});
