import { parseCliArgs, parsePortOption } from '../args.js';
import { createLogger } from '../../log/index.js';
import { demoConfig } from '../../demo.js';
import { ConfigError } from '../../errors.js';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import { DEMO_PAY_URL, resolveServeConfig, type ServeConfig } from '../../server/config.js';
import { checkDependencies, startupProbes } from '../../server/dependencies.js';
import { startServer } from '../../server/serve.js';
import { demoSecretsIn } from '../../server/demo-secrets.js';
import { readConfigFile } from '../config-file.js';
import { bannerWriter } from '../banner.js';
import { exitOnSignals } from '../shutdown.js';
import { reloadTlsOnHangup } from '../reload.js';
import { checkConfigPermissions, isLoopbackHost } from '../config-permissions.js';

export const SERVE_USAGE = `wallet-partner-kit serve [--config FILE] [--host HOST] [--port N] [--data DIR] [--demo]
                         [--require-dependencies]
                         [--tls-cert FILE --tls-key FILE] [--strict-permissions]

Starts the cash desk server: HTTP (POST /v1/barcode/verify, POST /v1/token, GET /healthz,
GET /metrics, GET /openapi.json) and the WebSocket bridge (/ws, subprotocol wallet-pos.v1)
on one port. Configuration: --config FILE (JSON) or WPK_CONFIG, then WPK_* variables, then flags.
  --demo        use the embedded demo configuration (public demo keys; never in production; loopback --host only)
  --host HOST   bind address (default 127.0.0.1)
  --port N      port (default 8080; 0 picks a free one)
  --data DIR    keep payment sessions in DIR (PGlite); default in memory. DATABASE_URL selects a PostgreSQL
                server instead.
  --tls-cert FILE, --tls-key FILE  HTTPS and WSS on the port with these PEM files (config: tls.cert, tls.key;
                WPK_TLS_CERT, WPK_TLS_KEY); SIGHUP reads them again. Behind a proxy: trustedProxies
                (WPK_TRUSTED_PROXIES), see docs/going-live.md.
  --strict-permissions  refuse to start when the --config file is readable by other users (else a warn line)
  --require-dependencies  exit 1 when Redis (redisUrl) or the Pay API (pay.url) does not answer at start (config:
                requireDependencies); without it each is said in one warn line and the server starts. A database
                that does not answer always ends the start.
With pay.url (WPK_PAY_URL; --demo: the sandbox at ${DEMO_PAY_URL}) the server takes wallet payments for tills:
pay.* bridge methods, /v1/payments, and POST /webhooks/pay with pay.webhookSecret (WPK_PAY_WEBHOOK_SECRET).
A service other than the kit's: pay.profile (WPK_PAY_PROFILE), pay.tokenHeader (WPK_PAY_TOKEN_HEADER), pay.paths;
'wallet-partner-kit pay check' tells which it needs.
LOG_LEVEL sets the log level (default info).`;

/** Runs `serve` until SIGTERM or SIGINT, then drains and exits. */
export async function serve(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      config: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      demo: { type: 'boolean' },
      'require-dependencies': { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'strict-permissions': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return;
  }
  const configPath = values.config ?? process.env.WPK_CONFIG;
  // The demo pays against the sandbox's default URL (demoConfig.pay).
  const file = values.demo ? demoConfig : configPath ? readConfigFile(configPath) : undefined;
  if (file === undefined && !Object.keys(process.env).some((name) => name.startsWith('WPK_'))) {
    throw new ConfigError(
      ['none given; try it with --demo, or give --config FILE (JSON; or WPK_CONFIG) or WPK_* variables'],
      'server configuration',
    );
  }
  const config = resolveServeConfig(file, process.env, {
    host: values.host,
    port: parsePortOption(values.port),
    dataDir: values.data,
    requireDependencies: values['require-dependencies'],
    tlsCert: values['tls-cert'],
    tlsKey: values['tls-key'],
  });
  const demoSecrets = values.demo ? [] : demoSecretsIn(config);
  if (demoSecrets.length > 0) throw new ConfigError(demoSecrets, 'server configuration');
  if (values.demo && !isLoopbackHost(config.server.host)) {
    throw new ConfigError(
      [`--host: --demo has public keys, so it listens on loopback only (127.0.0.1, ::1), not ${config.server.host}`],
      'server configuration',
    );
  }
  // If whoever reads our stdout goes away (a closed pipe), keep serving and
  // shutting down properly: losing log lines must not cost a till its answers.
  process.stdout.on('error', () => {});
  const logger = createLogger({ level: process.env.LOG_LEVEL });
  if (!values.demo && configPath) checkConfigPermissions(configPath, logger, values['strict-permissions'] ?? false);
  // Redis and the Pay API are asked once at start: a warn line each that does not answer, or (required) the end.
  const probes = startupProbes(config);
  if (config.requireDependencies) await checkDependencies(probes, logger, true);
  else void checkDependencies(probes, logger, false).catch(() => {});
  const server = await startServer(config, logger);
  if (values.demo) bannerWriter(logger)(demoBanner(config, server.url, server.wsUrl));

  if (config.tls !== undefined) reloadTlsOnHangup(logger, () => server.reloadTls());
  exitOnSignals(logger, () => server.close());
}

function demoBanner(config: ServeConfig, url: string, wsUrl: string): string {
  const till = config.tills[0]!;
  const v = config.verifier;
  // Two cards: a barcode is good once, so the curl line and the WebSocket line each get their own.
  const draw = (cardNumber: string) => drawBarcode({ ...v, cardNumber, cardSession: 'AB12CD34' });
  const barcode = draw('4000123412341234');
  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'barcode.verify',
    params: { fullBarcode: draw('4000567856785678') },
  });
  return `
  wallet-partner-kit cash desk server (DEMO configuration: public keys, never use in production)
  HTTP       ${url}   (GET /healthz, /metrics, /openapi.json)
  WebSocket  ${wsUrl}  (subprotocol wallet-pos.v1)
  Till key   ${till.key}

  Try it (each barcode is valid once, for about a minute; \`npx wallet-partner-kit barcode --demo --card N\` prints \
a fresh one;
  run the node line in the kit's folder, where the ws package is):
    curl -s -H 'Authorization: Bearer ${till.key}' -H 'Content-Type: application/json' \\
      -d '{"fullBarcode":"${barcode}"}' ${url}/v1/barcode/verify
    node -e "const W=require('ws');const s=new W('${wsUrl}','wallet-pos.v1',\
{headers:{Authorization:'Bearer ${till.key}'}});\
s.on('open',()=>s.send(process.argv[1]));s.on('message',m=>{console.log(String(m));s.close()})" '${call}'

`;
}
