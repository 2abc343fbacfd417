import type { Logger } from 'pino';
import type { BackOfficeRecords } from '../cashdesk/back-office/records.js';
import type { Payments } from '../cashdesk/payments/api.js';
import type { ChannelListeners } from '../cashdesk/payments/coordination.js';
import { BackOfficePayments } from '../cashdesk/back-office/back-office-payments.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { isDatabaseUnavailable, openChannel, openDatabase, type Database, type SharedChannel } from '../db/index.js';
import { createPayClient } from '../pay/client.js';
import type { ServeConfig } from './config.js';
import { wordsNotUnderstood, type NotUnderstoodCount } from './pay-words.js';
import { type DiscrepancyCounts, reportsOptions } from './payments-reports.js';

/** The payments of a running server and what they hold open. */
export interface ServerPayments {
  readonly payments: Payments & BackOfficeRecords;
  /** Which database holds the payment rows. */
  readonly databaseKind: Database['kind'];
  /**
   * The health check: resolves while the database and the payment channel are up as their own reconnect logic
   * sees them (no query: a busy host does not make it fail), rejects naming which is down.
   */
  ping(): Promise<void>;
  /** Why the payments are unhealthy now (the database or the channel down, as last seen), or undefined. */
  health(): string | undefined;
  close(): Promise<void>;
}

/** What the payments need of the cash desk service: its verification and its Pay API tokens. */
export interface PaymentsHost {
  /**
   * Verifies a scan for a payment of `tillId`: that till's own earlier verification of the same scan is the same scan.
   */
  verifyForPayment(fullBarcode: string, tillId: string): Promise<BarcodeVerification>;
  token(requestData: string): string | Promise<string>;
}

/** The parts of the configuration the payments read; `stores`: each till's store, for the reports. */
export type PaymentsConfig = Pick<ServeConfig, 'database'> & {
  pay: NonNullable<ServeConfig['pay']>;
  stores?: ReadonlyArray<[string, string | null]> | undefined;
  auditRetentionDays?: number | undefined;
};

/**
 * Opens the server's database (PGlite in memory by default, `database.dataDir`,
 * or PostgreSQL at `database.url`) and the payments run for the tills against
 * `pay.url`, signing with the server's verifier. With PostgreSQL, instances
 * share the payments by lease and a LISTEN/NOTIFY channel named after the schema.
 * `host` verifies the scans and signs the bodies (the server's `TillVerifications`).
 */
export async function openServerPayments(
  config: PaymentsConfig,
  host: PaymentsHost,
  logger: Logger,
  clock?: () => number,
  count?: NotUnderstoodCount,
  discrepancies?: DiscrepancyCounts,
): Promise<ServerPayments> {
  const { url, dataDir, schema } = config.database;
  const log = logger.child({ part: 'payments' });
  const db = await openDatabase({
    ...(url ? { url } : {}),
    ...(dataDir ? { dataDir } : {}),
    ...(schema ? { schema } : {}),
    logger: log.child({ part: 'database' }),
  });
  try {
    const client = serverPayClient(config.pay, host, log, count);
    const channel = `wpk_pay_${schema ?? 'public'}`;
    let shared: SharedChannel | undefined;
    const payments = new BackOfficePayments({
      client,
      db,
      verify: (fullBarcode, tillId) => host.verifyForPayment(fullBarcode, tillId),
      ...(config.pay.webhookSecret ? { webhookSecret: config.pay.webhookSecret } : {}),
      ...(config.pay.pollIntervalMs ? { pollIntervalMs: config.pay.pollIntervalMs } : {}),
      unknownStatusTimeoutMs: config.pay.unknownStatusTimeoutMs,
      adoptIntervalMs: config.pay.adoptIntervalMs,
      leaseMs: config.pay.leaseMs,
      // PGlite in memory dies with the process: a write before each step would protect nothing.
      writeBehind: db.kind === 'pglite' && dataDir === undefined,
      ...(db.kind === 'postgres' && url
        ? {
            openChannel: async (listeners: ChannelListeners) => {
              shared = await openPaymentChannel(url, channel, db, listeners, log);
              return shared;
            },
          }
        : {}),
      // The pool says once that the database went and once that it came back: no line per failed write or timer.
      onError: (error, what) => {
        if (!isDatabaseUnavailable(error)) log.warn({ err: error }, what);
      },
      // Ids only: where a chaos run's or an incident's payment went, and who let it go.
      onOwnership: ({ change, tillId, paymentId, epoch }) =>
        log.info({ till: tillId, paymentId, epoch }, `payment lease ${change}`),
      ...(clock ? { clock } : {}),
      reports: reportsOptions(config, log, discrepancies),
    });
    const health = (): string | undefined => {
      if (db.reachable?.() === false) return 'the database does not answer';
      // The instances' hints go over the LISTEN connection: while it is down this one hears none.
      if (shared !== undefined && !shared.connected) return 'the payment channel (LISTEN) is reconnecting';
      return undefined;
    };
    return {
      payments,
      databaseKind: db.kind,
      health,
      async ping() {
        const down = health();
        if (down !== undefined) throw new Error(down);
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

/** The server's Pay client: tokens from the server's verifier; logs paths and timings, never bodies or tokens. */
function serverPayClient(
  pay: PaymentsConfig['pay'],
  host: PaymentsHost,
  log: Logger,
  count: NotUnderstoodCount | undefined,
) {
  const words = wordsNotUnderstood(log, count);
  return createPayClient({
    baseUrl: pay.url,
    sign: (text) => host.token(text),
    timeoutMs: pay.timeoutMs,
    profile: pay.profile,
    tokenHeader: pay.tokenHeader,
    paths: pay.paths,
    dialect: pay.dialect,
    // Paths and timings only: never bodies or tokens.
    onEvent: (e) => {
      if (e.type === 'request') log.info({ path: e.path, attempt: e.attempt }, 'pay request');
      else if (e.type === 'failure')
        log.warn({ path: e.path, attempt: e.attempt, code: e.error.code }, 'pay request failed');
      // Field names only: what the service answered that the client does not read (pay check tells which option
      // fits).
      else if (e.type === 'responseNotUnderstood') {
        log.warn(
          { path: e.path, httpStatus: e.httpStatus, unknown: e.unknown, missing: e.missing, invalid: e.invalid },
          'pay response not understood',
        );
      } else {
        words(e);
      }
    },
  });
}

/** The instances' LISTEN/NOTIFY channel on PostgreSQL at `url`, logged once per change of state. */
function openPaymentChannel(
  url: string,
  channel: string,
  db: Database,
  { onMessage, onDown, onReconnect }: ChannelListeners,
  log: Logger,
): Promise<SharedChannel> {
  return openChannel({
    url,
    channel,
    notifyWith: db,
    onMessage,
    onReconnect,
    // One line per change of state, never one per attempt.
    onStateChange: (up, error) => {
      if (up) {
        log.info('payment channel listening again: reading what was written meanwhile');
      } else {
        onDown();
        log.warn({ err: error }, 'payment channel lost: reconnecting; instances read the rows meanwhile');
      }
    },
  });
}
