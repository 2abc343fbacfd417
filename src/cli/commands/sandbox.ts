import { parseCliArgs, parsePortOption } from '../args.js';
import { createLogger } from '../../log/index.js';
import { pushAccount, PUSH_ACCOUNT_USAGE } from './push-account.js';
import { bannerWriter } from '../banner.js';
import { exitOnSignals } from '../shutdown.js';

export const SANDBOX_USAGE = `wallet-partner-kit sandbox [--port N] [--host HOST] [--data DIR] [--demo] [--time-scale N]
                          [--dialect kit|foreign] [--strict]

Starts the wallet-service sandbox: the Pay API, the Push API with its callback sender, the
wallet-app simulator and test controls (/sandbox/...), GET /openapi.json.
  --port N         port (default 8090; 0 picks a free one)
  --host HOST      bind address (default 127.0.0.1)
  --data DIR       keep the data in DIR (PGlite); default in memory. DATABASE_URL selects a PostgreSQL server instead.
  --demo           create the demo partner (the key of demoConfig), Push account and cards; print the simulator's URLs
  --time-scale N   run the sandbox's waits (webhook retries, bank delays) N times faster (default 1)
  --dialect D      the Pay API's words: kit (default, the kit's own) or foreign (statuses NEW, IN_PROGRESS, PAID,
                   DECLINED, CANCELED, EXPIRED and an undocumented ON_HOLD, numeric transaction ids, {code, message}
                   errors, 410 SESSION_EXPIRED, refunds PENDING first); check it with 'pay check --dialect foreign'
                   (the package's examples/dialects/sandbox-foreign.json, its pay.dialect for serve)
  --strict         refuse (409) a /checkout for a card session whose invoice is still open, instead of cancelling it
LOG_LEVEL sets the log level (default info). WPK_TRUSTED_PROXIES: proxies (addresses or CIDRs, comma separated)
whose X-Forwarded-For names the client.

${PUSH_ACCOUNT_USAGE}`;

function number(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value))
    throw Object.assign(new Error(`${what}: must be a number`), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
  return Number(value);
}

function dialect(value: string | undefined): 'kit' | 'foreign' | undefined {
  if (value === undefined || value === 'kit' || value === 'foreign') return value;
  throw Object.assign(new Error('--dialect: must be kit or foreign'), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}

/** Runs `sandbox` until SIGTERM or SIGINT, or a `sandbox` subcommand. */
export async function sandbox(argv: string[]): Promise<void> {
  if (argv[0] === 'push-account') {
    await pushAccount(argv.slice(1));
    return;
  }
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      demo: { type: 'boolean' },
      'time-scale': { type: 'string' },
      dialect: { type: 'string' },
      strict: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(SANDBOX_USAGE);
    return;
  }
  process.stdout.on('error', () => {});
  const logger = createLogger({ level: process.env.LOG_LEVEL });
  const databaseUrl = values.data === undefined ? process.env.DATABASE_URL || undefined : undefined;
  const { startSandbox } = await import('../../sandbox/server.js');
  const writeBanner = bannerWriter(logger);
  const demo = values.demo ?? false;
  const storage = values.data ? ` in ${values.data}` : databaseUrl ? '' : ' in memory';
  const database = `${databaseUrl ? 'postgres' : 'pglite'}${storage}`;
  // The banner's head as soon as the port is bound (in memory: before the database is ready; requests wait for it);
  // the modules' lines once their demo records exist.
  // Said only when not the default, so the default banner stays as it was.
  const strictly = values.strict ? ', strict checkout (409 while an invoice is open)' : '';
  const words =
    values.dialect === 'foreign' || values.strict ? `  Pay API    ${values.dialect ?? 'kit'} dialect${strictly}\n` : '';
  const starting = startSandbox({
    host: values.host,
    port: parsePortOption(values.port),
    dataDir: values.data,
    databaseUrl,
    demo,
    timeScale: number(values['time-scale'], '--time-scale'),
    logger,
    dialect: dialect(values.dialect),
    strict: values.strict ?? false,
    trustedProxies: (process.env.WPK_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    onListening: (url) =>
      writeBanner(`
  wallet-partner-kit sandbox ${demo ? '(DEMO records: public keys, never use in production)' : ''}
  URL        ${url}   (GET /healthz, /openapi.json)
  Database   ${database}
${words}`),
  });
  exitOnSignals(logger, async () => (await starting.catch(() => undefined))?.close());
  const running = await starting;
  const lines = running.sandbox.banner.map((line) => line.replaceAll('{url}', running.url));
  writeBanner(`${lines.map((line) => `  ${line}\n`).join('')}\n`);
  logger.info({ url: running.url, database: running.sandbox.context.db.kind, demo }, 'sandbox listening');
}
