import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { demoConfig } from '../demo.js';
import { ConfigError } from '../errors.js';
import { startLoyaltyProgram, type RunningLoyaltyProgram } from '../loyalty-program/start.js';
import { startSandbox, type RunningSandbox } from '../sandbox/server.js';
import { resolveServeConfig } from './config.js';
import { startServer, type RunningServer } from './serve.js';
import { mountWebPage } from '../../adapters/http-server/web-pages.js';
import { MERCHANT_CONSOLE_PATH } from './console/merchant-console.js';
import { sandboxCall, startBackOffice } from './demo-back-office.js';
import { listening, probePort } from './demo-ports.js';

/** Where the demo system's pages are, on the server that serves each. */
export const DEMO_PAGES = { wallet: '/sandbox/app', till: '/till', merchant: MERCHANT_CONSOLE_PATH } as const;

/** Options of {@link startDemoSystem}. */
export interface DemoSystemOptions {
  /**
   * The cash desk server's port (default 8080); the sandbox listens on port + 10
   * the Loyalty server on port + 11 and the callback receiver on port + 12. 0 gives each a free port.
   */
  port?: number;
  /** Bind address of all three (default 127.0.0.1). */
  host?: string;
  /**
   * Keep each server's data (PGlite) in a subfolder of this folder: cashdesk/, sandbox/, loyalty/. Default: in memory.
   */
  dataDir?: string;
  /** The sandbox's waits (bank delays, webhook retries) run this many times faster. Default 1. */
  timeScale?: number;
  /** Default: silent. Each server logs as a child with `system: cashdesk | sandbox | loyalty`. */
  logger?: Logger;
  /** ms since the epoch, for the sandbox and the cash desk server alike (tests move it). Default `Date.now`. */
  clock?: () => number;
}

/** A sandbox card as the wallet app holds it, with the barcode it draws now. */
export interface DemoCard {
  cardNumber: string;
  cardSession: string | null;
  barcode: string;
}

/** The three servers of the demo system, listening and wired together. */
export interface RunningDemoSystem {
  readonly cashDesk: RunningServer;
  readonly sandbox: RunningSandbox;
  readonly loyalty: RunningLoyaltyProgram;
  /** Where the sandbox sends its Pay webhooks: the cash desk server's `POST /webhooks/pay`. */
  readonly webhookUrl: string;
  /**
   * The merchant's Callback API receiver (port + 12), where the console's Push account's callbacks go:
   * `{url}/callback`.
   */
  readonly callbacks: { readonly url: string };
  /** The subfolder of each server's data, when `dataDir` was given. */
  readonly dataDirs: { cashdesk: string; sandbox: string; loyalty: string } | undefined;
  /** Issues a new card in the sandbox's wallet app: a fresh barcode with a card session. */
  issueCard(options?: { walletPayIsDefault?: boolean }): Promise<DemoCard>;
  /** Stops the cash desk server, then the sandbox, then the Loyalty server. Idempotent. */
  close(): Promise<void>;
}

/** The largest `port` that leaves room for port + 12. */
export const MAX_BASE_PORT = 65_535 - 12;

function checkOptions(options: DemoSystemOptions): { port: number; host: string } {
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > MAX_BASE_PORT) {
    throw new ConfigError(
      [
        `port: must be an integer from 0 to ${MAX_BASE_PORT} (the sandbox takes port + 10, Loyalty port + 11, ` +
          `the callback receiver port + 12)`,
      ],
      'demo options',
    );
  }
  return { port, host: options.host ?? '127.0.0.1' };
}

/**
 * Starts the whole system on one machine (the README's `npm start`), on embedded defaults:
 * the default Loyalty server (port + 11, demo partner and credentials), the
 * sandbox wallet service (port + 10, demo records) driving that Loyalty server
 * and sending its Pay webhooks to the cash desk server, and the cash desk
 * server (port) on `demoConfig`, its Pay client pointed at the sandbox. If one
 * cannot start, those already started are stopped again.
 *
 * @example
 * const system = await startDemoSystem({ port: 0 });
 * const card = await system.issueCard();
 * // ... system.cashDesk.wsUrl, system.sandbox.url
 * await system.close();
 */
export async function startDemoSystem(options: DemoSystemOptions = {}): Promise<RunningDemoSystem> {
  const { port, host } = checkOptions(options);
  const logger = options.logger ?? pino({ level: 'silent' });
  const portOf = (offset: number) => (port === 0 ? 0 : port + offset);
  const dataDirs = demoDataDirs(options.dataDir);
  if (port !== 0) await checkPortsFree(host, port);
  const started: Array<{ close(): Promise<void> }> = [];
  const stopAll = async () => {
    for (const server of started.reverse())
      await server.close().catch((error: unknown) => logger.error({ err: error }, 'stopping a demo server failed'));
  };
  try {
    const { loyalty, sandbox } = await startLoyaltyAndSandbox(options, { host, portOf, dataDirs, logger }, started);
    const {
      receiver,
      url: callbackUrl,
      merchant,
    } = await startBackOffice(sandbox, loyalty, host, portOf(12), logger, options.clock);
    started.push({ close: () => receiver.close() });
    const cashDesk = await startCashDesk(sandbox, merchant, options, { host, portOf, dataDirs, logger });
    started.push(cashDesk);
    const webhookUrl = `${cashDesk.url}/webhooks/pay`;
    await connectSandbox(sandbox, loyalty, webhookUrl);
    logger.info(
      { cashDesk: cashDesk.url, sandbox: sandbox.url, loyalty: loyalty.url, webhookUrl },
      'demo system listening',
    );
    let closing: Promise<void> | undefined;
    return {
      cashDesk,
      sandbox,
      loyalty,
      webhookUrl,
      dataDirs,
      callbacks: { url: callbackUrl },
      async issueCard(card = {}) {
        const { partnerId } = demoConfig.verifier;
        const issued = await sandboxCall<DemoCard>(sandbox, 'POST', '/sandbox/cards', { partnerId, ...card });
        return { cardNumber: issued.cardNumber, cardSession: issued.cardSession, barcode: issued.barcode };
      },
      close() {
        closing ??= stopAll();
        return closing;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

type DataDirs = RunningDemoSystem['dataDirs'];

/** Where each server of the demo runs: host, port by offset from the base, data folders, logger. */
interface DemoPlace {
  host: string;
  portOf: (offset: number) => number;
  dataDirs: DataDirs;
  logger: Logger;
}

/** The data folders of the three servers under `dataDir`, made; undefined (in memory) without one. */
function demoDataDirs(dataDir: string | undefined): DataDirs {
  if (dataDir === undefined) return undefined;
  const dirs = {
    cashdesk: join(dataDir, 'cashdesk'),
    sandbox: join(dataDir, 'sandbox'),
    loyalty: join(dataDir, 'loyalty'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

/** Refuses to start anything while one of the four ports is taken: nothing half-started to stop again. */
async function checkPortsFree(host: string, port: number): Promise<void> {
  for (const [what, offset] of [
    ['cash desk server', 0],
    ['sandbox', 10],
    ['Loyalty server', 11],
    ['callback receiver', 12],
  ] as const) {
    await listening(what, host, port + offset, () => probePort(host, port + offset));
  }
}

/** The Loyalty server and the sandbox, started side by side; each one that started is pushed on `started`. */
async function startLoyaltyAndSandbox(
  options: DemoSystemOptions,
  { host, portOf, dataDirs, logger }: DemoPlace,
  started: Array<{ close(): Promise<void> }>,
): Promise<{ loyalty: RunningLoyaltyProgram; sandbox: RunningSandbox }> {
  // The two have no need of each other to start; their databases open side by side.
  const [loyaltyStart, sandboxStart] = await Promise.allSettled([
    listening('Loyalty server', host, portOf(11), () =>
      startLoyaltyProgram({
        host,
        port: portOf(11),
        dataDir: dataDirs?.loyalty,
        demo: true,
        logger: logger.child({ system: 'loyalty' }),
      }),
    ),
    listening('sandbox', host, portOf(10), () =>
      startSandbox({
        host,
        port: portOf(10),
        dataDir: dataDirs?.sandbox,
        demo: true,
        timeScale: options.timeScale,
        logger: logger.child({ system: 'sandbox' }),
        ...(options.clock ? { clock: options.clock } : {}),
      }),
    ),
  ]);
  for (const start of [loyaltyStart, sandboxStart]) if (start.status === 'fulfilled') started.push(start.value);
  for (const start of [loyaltyStart, sandboxStart]) if (start.status === 'rejected') throw start.reason;
  return {
    loyalty: (loyaltyStart as PromiseFulfilledResult<RunningLoyaltyProgram>).value,
    sandbox: (sandboxStart as PromiseFulfilledResult<RunningSandbox>).value,
  };
}

/** The cash desk server on the demo's configuration, its Pay client pointed at the sandbox, serving the pages. */
async function startCashDesk(
  sandbox: RunningSandbox,
  merchant: Awaited<ReturnType<typeof startBackOffice>>['merchant'],
  options: DemoSystemOptions,
  { host, portOf, dataDirs, logger }: DemoPlace,
): Promise<RunningServer> {
  // Embedded defaults whatever the environment says: the env is not read (no DATABASE_URL, no WPK_*).
  const config = resolveServeConfig(
    {
      ...demoConfig,
      server: { host, port: portOf(0) },
      pay: { ...demoConfig.pay, url: sandbox.url },
      database: dataDirs === undefined ? {} : { dataDir: dataDirs.cashdesk },
    },
    {},
  );
  return listening('cash desk server', host, portOf(0), () =>
    startServer(config, logger.child({ system: 'cashdesk' }), {
      clock: options.clock,
      // The till page speaks the bridge from the cash desk server's own origin, which the bridge then accepts.
      mount: (app, service, backOffice) => {
        mountWebPage(app, DEMO_PAGES.till, 'till');
        merchant.mount(app, service, backOffice);
      },
      beforeClose: () => merchant.close(),
    }).catch(async (error: unknown) => {
      await merchant.close();
      throw error;
    }),
  );
}

/** Registers the demo partner in the sandbox (webhooks to the cash desk server) and points it at the Loyalty server. */
async function connectSandbox(sandbox: RunningSandbox, loyalty: RunningLoyaltyProgram, webhookUrl: string) {
  const { partnerId, key } = demoConfig.verifier;
  await sandboxCall(sandbox, 'POST', '/sandbox/partners', {
    partnerId,
    key,
    webhookUrl,
    webhookSecret: demoConfig.pay.webhookSecret,
  });
  await sandboxCall(sandbox, 'PUT', '/sandbox/loyalty/target', { url: loyalty.url, ...demoConfig.loyalty });
}
