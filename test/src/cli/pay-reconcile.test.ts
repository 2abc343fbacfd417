import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../../adapters/node/verifier.js';
import { paymentMigrations } from '../../../src/cashdesk/payments/migrations.js';
import { migrate, openDatabase } from '../../../src/db/index.js';
import { demoConfig } from '../../../src/demo.js';
import { createPayClient } from '../../../src/pay/client.js';
import { testClock } from '../../support/clock.js';
import { BASKET, PARTNER_ID, TOTAL } from '../../support/pay-server.js';
import { writeKitRow } from '../cashdesk/reconcile/kit-rows.js';
import { type PaySandbox, startDialectSandbox } from '../pay/sandbox-harness.js';

const run = promisify(execFile);
const main = join(import.meta.dirname, '..', '..', '..', 'dist', 'src', 'cli', 'main.js');

/** Runs the built CLI; resolves with its exit code and output whatever the code. */
async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'error' };
  try {
    const { stdout, stderr } = await run(process.execPath, [main, ...args], { cwd, env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pay reconcile (the built command, no server running)', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let dir: string;

  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, 'kit');
    await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
    dir = mkdtempSync(join(tmpdir(), 'wpk-reconcile-'));
    const { verifier, tills } = demoConfig;
    const database = { dataDir: join(dir, 'data') };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ verifier, tills, pay: { url: sb.url }, database }));
    // A payment the till abandoned whose cancel failed, then paid by the customer: a late success.
    const signer = createVerifier({ ...demoConfig.verifier, replay: false, lockout: false } as never);
    const client = createPayClient({ baseUrl: sb.url, verifier: signer });
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const body = { requestId: 'cli-late', cardSession: card.cardSession, ...BASKET, totalAmount: TOTAL };
    const { transactionId } = await client.checkout(body as never);
    const db = await openDatabase(database);
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    await writeKitRow(db, {
      tillId: demoConfig.tills[0].id,
      paymentId: 'cli-late',
      phase: 'abandoned',
      requestId: 'cli-late',
      cardSession: card.cardSession,
      transactions: [{ transactionId, status: 'created', statusClass: 'transit' }],
    });
    await db.close();
    await sb.sim.confirm(transactionId);
    for (let i = 0; i < 200 && (await client.status({ transactionId })).statusClass !== 'successful'; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await signer.close();
  }, 180_000);
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 with the late success in --json and --csv', async () => {
    const { code, stdout } = await cli(
      ['pay', 'reconcile', '--config', 'config.json', '--json', '--csv', 'd.csv'],
      dir,
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      payments: 1,
      transactions: 1,
      discrepancies: [{ kind: 'late_success', paymentId: 'cli-late', healed: false }],
    });
    const csv = readFileSync(join(dir, 'd.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/^kind,tillId,store,paymentId,transactionId,/);
    expect(csv[1]).toMatch(/^late_success,/);
  }, 180_000);

  it('exits 2 on a bad argument, naming it', async () => {
    const { code, stderr } = await cli(['pay', 'reconcile', '--config', 'config.json', '--to', 'soon'], dir);
    expect(code).toBe(2);
    expect(stderr).toContain('--to');
  }, 180_000);
});
