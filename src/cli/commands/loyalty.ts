import { parseCliArgs, parsePortOption } from '../args.js';
import { createLogger } from '../../log/index.js';
import { demoConfig } from '../../demo.js';
import { ConfigError } from '../../errors.js';
import type { StartLoyaltyProgramOptions } from '../../loyalty-program/start.js';
import { bannerWriter } from '../banner.js';
import { exitOnSignals } from '../shutdown.js';
import { reloadTlsOnHangup } from '../reload.js';
import { isDemoSecret } from '../../server/demo-secrets.js';

export const LOYALTY_USAGE = `wallet-partner-kit loyalty [--port N] [--host HOST] [--data DIR] [--demo]
                           [--tls-cert FILE --tls-key FILE]
wallet-partner-kit loyalty check --url URL [--login L] [--password P]

Runs the merchant's Loyalty API server (the default, store-backed implementation): anonymous cards,
category groups and favourites, promo codes, receipt QR codes; GET /healthz, /openapi.json.
  --port N         port (default 8091; 0 picks a free one)
  --host HOST      bind address (default 127.0.0.1)
  --data DIR       keep the data in DIR (PGlite); default in memory. DATABASE_URL selects a PostgreSQL server instead.
  --tls-cert FILE, --tls-key FILE  HTTPS with these PEM files (WPK_TLS_CERT, WPK_TLS_KEY); SIGHUP reads them again
  --demo           the demo partner key and Basic credentials (demoConfig.loyalty), demo categories and promo codes
Without --demo: WPK_KEY (partner key, hex), WPK_ALGORYTHM (default HMACSHA256), WPK_SCHEME
(rfc6238, the default, or card-bound: only then a new card carries its cardKey),
WPK_LOYALTY_LOGIN and WPK_LOYALTY_PASSWORD (the wallet service's Basic credentials).
WPK_TRUSTED_PROXIES: proxies (addresses or CIDRs, comma separated) whose X-Forwarded-For names the client.
'check' calls a Loyalty server as the wallet would and prints PASS/FAIL per operation; exits 1 on a failure.
Credentials default to WPK_LOYALTY_LOGIN / WPK_LOYALTY_PASSWORD. LOG_LEVEL sets the log level (default info).`;

/** Runs `loyalty` until SIGTERM or SIGINT, or `loyalty check`. */
export async function loyalty(argv: string[]): Promise<void> {
  if (argv[0] === 'check') {
    await check(argv.slice(1));
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
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(LOYALTY_USAGE);
    return;
  }
  const tls = tlsFiles(values['tls-cert'] ?? process.env.WPK_TLS_CERT, values['tls-key'] ?? process.env.WPK_TLS_KEY);
  const trustedProxies = (process.env.WPK_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const env = process.env;
  const fromEnv: Partial<StartLoyaltyProgramOptions> = {};
  if (!values.demo) {
    const missing = ['WPK_KEY', 'WPK_LOYALTY_LOGIN', 'WPK_LOYALTY_PASSWORD'].filter((name) => !env[name]);
    if (missing.length > 0)
      throw new ConfigError(
        missing.map((name) => `${name}: must be set (or use --demo)`),
        'loyalty configuration',
      );
    const demoSecrets = (['WPK_KEY', 'WPK_LOYALTY_PASSWORD'] as const).filter((name) => isDemoSecret(env[name]));
    if (demoSecrets.length > 0) {
      throw new ConfigError(
        demoSecrets.map((name) => `${name}: is a public demo secret; use your own (demo secrets only with --demo)`),
        'loyalty configuration',
      );
    }
    Object.assign(fromEnv, {
      partnerKey: env.WPK_KEY,
      credentials: { login: env.WPK_LOYALTY_LOGIN!, password: env.WPK_LOYALTY_PASSWORD! },
      ...(env.WPK_ALGORYTHM ? { algorythm: env.WPK_ALGORYTHM } : {}),
      ...(env.WPK_SCHEME ? { scheme: env.WPK_SCHEME } : {}),
    });
  }
  process.stdout.on('error', () => {});
  const logger = createLogger({ level: env.LOG_LEVEL });
  const databaseUrl = values.data === undefined ? env.DATABASE_URL || undefined : undefined;
  const { startLoyaltyProgram } = await import('../../loyalty-program/start.js');
  const writeBanner = bannerWriter(logger);
  const demo = values.demo ?? false;
  const storage = values.data ? ` in ${values.data}` : databaseUrl ? '' : ' in memory';
  const database = `${databaseUrl ? 'postgres' : 'pglite'}${storage}`;
  // The banner as soon as the port is bound (in memory: before the database is ready; requests wait for it).
  const starting = startLoyaltyProgram({
    ...fromEnv,
    host: values.host,
    port: parsePortOption(values.port),
    dataDir: values.data,
    databaseUrl,
    demo,
    logger,
    trustedProxies,
    ...(tls === undefined ? {} : { tls }),
    onListening: (url) => writeBanner(banner(url, database, demo)),
  });
  exitOnSignals(logger, async () => {
    await (await starting.catch(() => undefined))?.close();
    logger.info('stopped');
  });
  const running = await starting;
  if (tls !== undefined) reloadTlsOnHangup(logger, () => running.reloadTls());
  logger.info({ url: running.url, database: running.db.kind, demo }, 'loyalty server listening');
}

/** Both TLS files, or none; one without the other is refused. */
function tlsFiles(cert: string | undefined, key: string | undefined): { cert: string; key: string } | undefined {
  if (!cert && !key) return undefined;
  if (!cert || !key) {
    throw new ConfigError(['tls: give both --tls-cert and --tls-key (or WPK_TLS_CERT and WPK_TLS_KEY)'], 'loyalty');
  }
  return { cert, key };
}

function banner(url: string, database: string, demo: boolean): string {
  const lines = [
    '',
    `  wallet-partner-kit Loyalty API ` +
      `server${demo ? ' (DEMO: public partner key and credentials, never use in production)' : ''}`,
    `  URL        ${url}   (API under /v1; GET /healthz, /openapi.json)`,
    `  Database   ${database}`,
  ];
  if (demo) {
    const { login, password } = demoConfig.loyalty;
    lines.push(
      `  Login      ${login}`,
      `  Password   ${password}`,
      '  Promo      WELCOME100, ONCE500 (single use), WEEK50, EXPIRED2024 (expired)',
      '',
      '  Try it:',
      `    curl -s -u '${login}:${password}' -H 'Content-Type: application/json' -d '{"requestId":"try-1"}' ` +
        `${url}/v1/card/anonymous`,
      `    npx wallet-partner-kit loyalty check --url ${url} --login ${login} --password ${password}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}

async function check(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      login: { type: 'string' },
      password: { type: 'string' },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(LOYALTY_USAGE);
    return;
  }
  const login = values.login ?? process.env.WPK_LOYALTY_LOGIN;
  const password = values.password ?? process.env.WPK_LOYALTY_PASSWORD;
  const issues: string[] = [];
  if (values.url === undefined || !/^https?:\/\/[^\s]+$/.test(values.url))
    issues.push("--url: must be the server's http(s):// URL");
  if (!login) issues.push('--login: must be given (or WPK_LOYALTY_LOGIN)');
  if (password === undefined) issues.push('--password: must be given (or WPK_LOYALTY_PASSWORD)');
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    issues.push('--timeout-ms: must be a positive integer');
  if (issues.length > 0) throw new ConfigError(issues, 'arguments');
  const { runConformanceCheck } = await import('../../loyalty/check/check.js');
  const { formatConformanceReport } = await import('../../loyalty/check/format.js');
  const report = await runConformanceCheck({ baseUrl: values.url!, login: login!, password: password!, timeoutMs });
  for (const line of formatConformanceReport(report)) console.log(line);
  console.log(
    report.ok ? 'conformance: all passed' : `conformance: ${report.results.filter((r) => !r.ok).length} failed`,
  );
  if (!report.ok) process.exitCode = 1;
}
