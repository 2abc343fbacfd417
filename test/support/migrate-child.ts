/**
 * A separate process for the replicas-start-together test:
 *
 *   node --import tsx test/support/migrate-child.ts <databaseUrl>
 *
 * Loads the kit and prints `READY`. Then, for each line on stdin (a schema name, so a test releases several
 * processes at the same moment), does what a starting `serve` does to an empty database: opens it in that schema
 * with a connection of its own, applies every module's migrations and closes it; prints `MIGRATED`, or the error's
 * code and message as one JSON line. Exits 0 when stdin ends. One process serves several rounds so a round costs
 * the migrations, not another load of the kit.
 */
import { createInterface } from 'node:readline';
import { CALLBACK_MIGRATIONS } from '../../src/callback/migrations.js';
import { paymentMigrations } from '../../src/cashdesk/payments/migrations.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { loyaltyMigrations } from '../../src/loyalty-program/migrations.js';
import { SANDBOX_MODULES } from '../../src/sandbox/modules.js';
import { outboxMigrations } from '../../src/sandbox/outbox/migrations.js';

async function migrateAll(url: string, schema: string): Promise<void> {
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
}

async function main(): Promise<void> {
  const [url] = process.argv.slice(2);
  if (!url) throw new TypeError('usage: migrate-child.ts <databaseUrl>');
  process.stdout.write('READY\n');
  for await (const schema of createInterface({ input: process.stdin })) {
    try {
      await migrateAll(url, schema);
      process.stdout.write('MIGRATED\n');
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown };
      process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
