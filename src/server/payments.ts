import type { Logger } from 'pino';
import type { Payments } from '../cashdesk/payments/api.js';
import { CashDeskPayments } from '../cashdesk/payments/service.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { openChannel, openDatabase, type Database } from '../db/index.js';
import { createPayClient } from '../pay/client.js';
import type { ServeConfig } from './config.js';

/** The payments of a running server and what they hold open. */
export interface ServerPayments {
  readonly payments: Payments;
  /** Which database holds the payment rows. */
  readonly databaseKind: Database['kind'];
  /** Resolves when the database answers (the health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What the payments need of the cash desk service: its verification and its Pay API tokens. */
export interface PaymentsHost {
  verify(fullBarcode: string): Promise<BarcodeVerification>;
  token(requestData: string): string | Promise<string>;
}

/** The parts of the configuration the payments read. */
export type PaymentsConfig = Pick<ServeConfig, 'database'> & { pay: NonNullable<ServeConfig['pay']> };

/**
 * Opens the server's database (PGlite in memory by default, `database.dataDir`,
 * or PostgreSQL at `database.url`) and the payments run for the tills against
 * `pay.url`, signing with the server's verifier. With PostgreSQL, instances
 * share a channel (LISTEN/NOTIFY and advisory locks) named after the schema.
 * `service()` is read lazily: the service is built with these payments.
 */
export async function openServerPayments(config: PaymentsConfig, service: () => PaymentsHost, logger: Logger, clock?: () => number): Promise<ServerPayments> {
  const { url, dataDir, schema } = config.database;
  const db = await openDatabase({ ...(url ? { url } : {}), ...(dataDir ? { dataDir } : {}), ...(schema ? { schema } : {}) });
  const log = logger.child({ part: 'payments' });
  try {
    const client = createPayClient({
      baseUrl: config.pay.url, token: (text) => service().token(text), timeoutMs: config.pay.timeoutMs,
      profile: config.pay.profile, tokenHeader: config.pay.tokenHeader, paths: config.pay.paths,
      // Paths and timings only: never bodies or tokens.
      onEvent: (e) => {
        if (e.type === 'request') log.info({ path: e.path, attempt: e.attempt }, 'pay request');
        else if (e.type === 'failure') log.warn({ path: e.path, attempt: e.attempt, code: e.error.code }, 'pay request failed');
      },
    });
    const channel = `wpk_pay_${schema ?? 'public'}`;
    const payments = new CashDeskPayments({
      client, db, verify: (fullBarcode) => service().verify(fullBarcode),
      ...(config.pay.webhookSecret ? { webhookSecret: config.pay.webhookSecret } : {}),
      ...(config.pay.pollIntervalMs ? { pollIntervalMs: config.pay.pollIntervalMs } : {}),
      adoptIntervalMs: config.pay.adoptIntervalMs,
      // PGlite in memory dies with the process: a write before each step would protect nothing.
      writeBehind: db.kind === 'pglite' && dataDir === undefined,
      ...(db.kind === 'postgres' && url ? {
        openChannel: (onMessage: (payload: string) => void) => openChannel({
          url, channel, onMessage, onError: (error) => log.error({ err: error }, 'payment channel failed: payments of this instance may be adopted by another'),
        }),
      } : {}),
      onError: (error, what) => log.warn({ err: error }, what),
      ...(clock ? { clock } : {}),
    });
    return {
      payments, databaseKind: db.kind,
      async ping() {
        await db.query('SELECT 1');
      },
      async close() {
        await payments.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
