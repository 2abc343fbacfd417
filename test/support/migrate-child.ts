/**
 * A separate process for the replicas-start-together test:
 *
 *   node --import tsx test/support/migrate-child.ts <databaseUrl> <schema>
 *
 * Loads the kit, prints `READY`, waits for a line on stdin (so a test releases several at the same moment), then
 * does what a starting `serve` does to an empty database: opens it in `schema` and applies every module's
 * migrations. Prints `MIGRATED` and exits 0, or prints the error's code and message and exits 1.
 */
import { createInterface } from 'node:readline';
import { CALLBACK_MIGRATIONS } from '../../src/callback/migrations.js';
import { paymentMigrations } from '../../src/cashdesk/payments/migrations.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { loyaltyMigrations } from '../../src/loyalty-program/migrations.js';
import { SANDBOX_MODULES } from '../../src/sandbox/modules.js';
import { outboxMigrations } from '../../src/sandbox/outbox/migrations.js';

async function main(): Promise<void> {
  const [url, schema] = process.argv.slice(2);
  if (!url || !schema) throw new TypeError('usage: migrate-child.ts <databaseUrl> <schema>');
  process.stdout.write('READY\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
  const db = await openPostgres({ url, schema, logger: { info() {}, warn() {} } });
  try {
    await migrate(db, 'outbox', outboxMigrations);
    for (const module of SANDBOX_MODULES) await migrate(db, module.name, module.migrations);
    await migrate(db, 'loyalty', loyaltyMigrations);
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    await migrate(db, 'callback', CALLBACK_MIGRATIONS);
  } finally {
    await db.close();
  }
  process.stdout.write('MIGRATED\n');
}

main().catch((error: unknown) => {
  const e = error as { code?: unknown; message?: unknown };
  process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  process.exit(1);
});
