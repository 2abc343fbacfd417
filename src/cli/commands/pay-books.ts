import { createVerifier } from '../../../adapters/node/verifier.js';
import { paymentMigrations } from '../../cashdesk/payments/migrations.js';
import { type Database, migrate, openDatabase } from '../../db/index.js';
import { ConfigError } from '../../errors.js';
import { createPayClient, type PayClient } from '../../pay/client.js';
import { resolveServeConfig, type ServeConfig } from '../../server/config.js';
import { readConfigFile } from '../config-file.js';

/** What `pay reconcile` and `pay day-close` read: `serve`'s payments database and its Pay API client. */
export interface PaymentBooks {
  config: ServeConfig;
  db: Database;
  /** Undefined when the configuration has no `pay` section. */
  client: PayClient | undefined;
  /** A till's store, as its entry in `tills` names it; null when it names none. */
  storeOf(tillId: string): string | null;
  /** The LISTEN/NOTIFY channel the server's instances share (PostgreSQL). */
  channel: string;
  close(): Promise<void>;
}

/**
 * Opens the payments of a `serve` configuration file (with the environment
 * over it, as `serve` reads it): its database and a Pay client signing with
 * its verifier. No server needs to run. A configuration that keeps the
 * payments in memory has nothing to read: refused.
 */
export async function openPaymentBooks(configPath: string, env: NodeJS.ProcessEnv): Promise<PaymentBooks> {
  const config = resolveServeConfig(readConfigFile(configPath), env);
  const { url, dataDir, schema } = config.database;
  if (url === undefined && dataDir === undefined) {
    throw new ConfigError(
      ['database: the payments are kept in memory by this configuration; give database.url or database.dataDir'],
      'configuration for pay',
    );
  }
  const { replay: _replay, ...verifierConfig } = config.verifier;
  const verifier = createVerifier({ ...verifierConfig, replay: false, lockout: false } as never);
  const db = await openDatabase({
    ...(url ? { url } : {}),
    ...(dataDir ? { dataDir } : {}),
    ...(schema ? { schema } : {}),
  });
  try {
    await migrate(db, 'cashdesk-payments', paymentMigrations);
  } catch (error) {
    await db.close();
    await verifier.close();
    throw error;
  }
  const pay = config.pay;
  const client =
    pay === undefined
      ? undefined
      : createPayClient({
          baseUrl: pay.url,
          verifier,
          timeoutMs: pay.timeoutMs,
          profile: pay.profile,
          tokenHeader: pay.tokenHeader,
          paths: pay.paths,
          dialect: pay.dialect,
        });
  // `store` of a till entry, where the configuration's schema has it.
  const stores = new Map(config.tills.map((t) => [t.id, (t as { store?: string }).store ?? null]));
  return {
    config,
    db,
    client,
    storeOf: (tillId) => stores.get(tillId) ?? null,
    channel: `wpk_pay_${schema ?? 'public'}`,
    close: async () => {
      await db.close();
      await verifier.close();
    },
  };
}
