import { parseCliArgs } from '../args.js';
import { CARD_SESSION_RULE } from '../../contracts/card-identifiers.js';
import { readDialect } from '../dialect-file.js';
import { createVerifier } from '../../../adapters/node/verifier.js';
import { CardSession } from '../../contracts/pay/bodies.js';
import { demoConfig } from '../../demo.js';
import { ConfigError } from '../../errors.js';
import { checkPayApi, type PayCheckProgress } from '../../pay/check/check.js';
import type { PayOperation } from '../../pay/events.js';
import { cardSessionOfBarcode, sandboxCardSession } from '../../pay/check/card.js';
import { DEFAULT_TOKEN_HEADER, type PayProfile } from '../../pay/options.js';
import { DEFAULT_PAY_TOKEN, type PayTokenConfig, payTokenSchema } from '../../contracts/pay/token.js';
import { validationErrors } from '../../contracts/validation-errors.js';
import { loadTokenSigner } from '../../pay/token-signer.js';
import {
  formatPayCheckHeading,
  formatPayCheckResult,
  formatPayCheckSummary,
  type PayCheckFormat,
} from '../../pay/check/format.js';
import { ENVIRONMENT } from '../../server/config-environment.js';
import { PAY_DAY_CLOSE_USAGE } from './pay-day-close.js';
import { PAY_RECONCILE_USAGE } from './pay-reconcile.js';

export const PAY_USAGE = `wallet-partner-kit pay check --url URL --key HEX [--partner-id ID] [--card-session S | \
--barcode B]
                           [--profile kit|document] [--dialect D] [--token-header H]
                           [--token-scheme S | --token-module M] [--path OPERATION=/PATH ...]
                           [--timeout-ms N] [--json] [--verbose]

'pay check' probes a Pay API as the kit uses it: /availability-info, /availability-info/task and /checkout
with a basket of 1.00, /status of the transaction made, /cancel of it. Per operation: PASS (the answer has the
fields the interface document names, nothing else), DIFFERS (it worked; the fields and values the kit's
contract does not expect are listed), FAIL (refused or unusable: HTTP status and body), SKIPPED. Exits 1 on
any FAIL. Each request and answer is recorded (--json, or below each operation that did not PASS); the key
and the token are never shown.
  --url URL          the Pay API root (default WPK_PAY_URL)
  --key HEX          the partner key that signs the token (default WPK_KEY)
  --partner-id ID    the token's kid, and the sandbox partner of an issued card (default WPK_PARTNER_ID)
  --card-session S   the card session to pay against, or
  --barcode B        a barcode the wallet app shows, split by the kit's verifier with --key and the layout of
                     WPK_PREFIX, WPK_DELIMETER, WPK_PASS_LENGTH, WPK_CARD_SESSION_LENGTH, WPK_ALGORYTHM,
                     WPK_INTERVAL, WPK_SCHEME (default: the demo layout CM ; 8 8 HMACSHA256 30 rfc6238)
                     Neither: against the kit's sandbox a card is issued through POST /sandbox/cards.
  --profile P        kit (default) or document: what the client sends (default WPK_PAY_PROFILE)
  --dialect D        the service's words: a JSON file with pay.dialect (or the dialect alone), or a preset
                     shipped in the package: foreign (sandbox --dialect foreign); default WPK_PAY_DIALECT
  --token-header H   the header the token goes in (default WPK_PAY_TOKEN_HEADER, else X-Wallet-Token)
  --token-scheme S   how the token is computed: kit, hmac-sha256-hex or hmac-sha256-base64 (default: WPK_PAY_TOKEN,
                     else kit)
  --token-module M   instead: an ES module exporting sign(bodyText, keyHex), as pay.token.module
  --path OP=/PATH    another path for an operation (availability, availabilityTask, checkout, status, cancel)
  --timeout-ms N     per request (default 10000)
  --json             the report as JSON (for CI)
  --verbose          the exchanges of every operation, also those that passed

${PAY_RECONCILE_USAGE}

${PAY_DAY_CLOSE_USAGE}`;

const LAYOUT = new Set(['algorythm', 'passLength', 'prefix', 'interval', 'cardSessionLength', 'delimeter', 'scheme']);
const OPERATIONS = new Set<PayOperation>([
  'availability',
  'availabilityTask',
  'checkout',
  'status',
  'cancel',
  'refund',
  'receipt',
]);

/** The demo layout, overridden by the WPK_* variables `serve` reads for it. */
function layoutFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const { key: _key, partnerId: _partner, ...layout } = demoConfig.verifier;
  const out: Record<string, unknown> = { ...layout };
  for (const [name, { path, kind }] of Object.entries(ENVIRONMENT)) {
    const raw = env[name];
    if (path[0] !== 'verifier' || !LAYOUT.has(path[1]!) || raw === undefined || raw === '') continue;
    out[path[1]!] = kind === 'number' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

function parsePaths(values: string[] | undefined, issues: string[]): Partial<Record<PayOperation, string>> {
  const paths: Partial<Record<PayOperation, string>> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    const operation = value.slice(0, at) as PayOperation;
    if (at < 1 || !OPERATIONS.has(operation))
      issues.push(
        `--path: '${value.slice(0, 40)}' must be OPERATION=/PATH with an operation of ${[...OPERATIONS].join(', ')}`,
      );
    else paths[operation] = value.slice(at + 1);
  }
  return paths;
}

/** `pay check`'s flags. */
const CHECK_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'partner-id': { type: 'string' },
  'card-session': { type: 'string' },
  barcode: { type: 'string' },
  profile: { type: 'string' },
  dialect: { type: 'string' },
  'token-header': { type: 'string' },
  'token-scheme': { type: 'string' },
  'token-module': { type: 'string' },
  path: { type: 'string', multiple: true },
  'timeout-ms': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type CheckValues = ReturnType<
  typeof parseCliArgs<{ args: string[]; strict: true; options: typeof CHECK_OPTIONS }>
>['values'];

/** The flags and WPK_* values `pay check` reads, checked together: every bad one is named. */
function readArguments(values: CheckValues, env: NodeJS.ProcessEnv) {
  const url = values.url ?? env.WPK_PAY_URL;
  const key = values.key ?? env.WPK_KEY;
  const partnerId = values['partner-id'] ?? (env.WPK_PARTNER_ID || undefined);
  const issues: string[] = [];
  if (url === undefined || !/^https?:\/\/\S+$/.test(url))
    issues.push("--url: must be the Pay API's http(s):// URL (or WPK_PAY_URL)");
  if (key === undefined || !/^(?:[0-9a-fA-F]{2}){16,1024}$/.test(key))
    issues.push('--key: must be the partner key, hex of 16 to 1024 bytes (or WPK_KEY)');
  if (values['card-session'] !== undefined && values.barcode !== undefined)
    issues.push('--card-session, --barcode: give one, not both');
  if (values['card-session'] !== undefined && !CardSession.safeParse(values['card-session']).success)
    issues.push(`--card-session: must be ${CARD_SESSION_RULE}`);
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= 600_000))
    issues.push('--timeout-ms: must be an integer from 1 to 600000');
  const paths = parsePaths(values.path, issues);
  const token = readToken(values['token-scheme'], values['token-module'], env.WPK_PAY_TOKEN, issues);
  if (issues.length > 0) throw new ConfigError(issues, 'arguments');
  return { url: url!, key: key!, partnerId, timeoutMs, paths, token };
}

/** `pay.token` from --token-scheme or --token-module (one), else WPK_PAY_TOKEN (JSON), else the kit's scheme. */
function readToken(
  scheme: string | undefined,
  module: string | undefined,
  fromEnv: string | undefined,
  issues: string[],
): PayTokenConfig {
  if (scheme !== undefined && module !== undefined) {
    issues.push('--token-scheme, --token-module: give one, not both');
    return DEFAULT_PAY_TOKEN;
  }
  let given: unknown = scheme !== undefined ? { scheme } : module !== undefined ? { module } : undefined;
  if (given === undefined && fromEnv) {
    try {
      given = JSON.parse(fromEnv);
    } catch {
      issues.push('WPK_PAY_TOKEN: must be JSON, e.g. {"scheme":"hmac-sha256-hex"}');
      return DEFAULT_PAY_TOKEN;
    }
  }
  if (given === undefined) return DEFAULT_PAY_TOKEN;
  const parsed = payTokenSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  issues.push(
    ...validationErrors(parsed.error, scheme !== undefined || module !== undefined ? 'token' : 'WPK_PAY_TOKEN'),
  );
  return DEFAULT_PAY_TOKEN;
}

/** Runs `pay check`, `pay reconcile` or `pay day-close`. */
export async function pay(argv: string[]): Promise<void> {
  if (argv[0] === 'reconcile') return (await import('./pay-reconcile.js')).payReconcile(argv.slice(1));
  if (argv[0] === 'day-close') return (await import('./pay-day-close.js')).payDayClose(argv.slice(1));
  if (argv[0] !== 'check') {
    if (argv[0] === undefined || argv[0] === '--help' || argv[0] === '-h') return void console.log(PAY_USAGE);
    throw new ConfigError(
      [`'${argv[0].slice(0, 40)}': unknown; the pay command has 'check', 'reconcile' and 'day-close'`],
      'arguments',
    );
  }
  const { values } = parseCliArgs({ args: argv.slice(1), strict: true, options: CHECK_OPTIONS });
  if (values.help) return void console.log(PAY_USAGE);
  const env = process.env;
  const { url, key, partnerId, timeoutMs, paths, token } = readArguments(values, env);
  // Read before anything is asked of the service: a wrong --dialect must not cost a sandbox card.
  const dialect = readDialect(values.dialect, env.WPK_PAY_DIALECT);

  const verifier = createVerifier({
    ...layoutFromEnv(env),
    key: key!,
    ...(partnerId ? { partnerId } : {}),
    ...('scheme' in token ? { token } : {}),
    replay: false,
    lockout: false,
  } as never);
  try {
    let cardSession = values['card-session'];
    let from = cardSession === undefined ? undefined : 'argument';
    if (values.barcode !== undefined)
      [cardSession, from] = [await cardSessionOfBarcode(verifier, values.barcode), 'barcode'];
    if (cardSession === undefined) {
      const card = await sandboxCardSession(url!, { partnerId, timeoutMs });
      if (card === undefined) {
        throw new ConfigError(
          [
            '--card-session or --barcode: give one. The card session is in the barcode the wallet app shows for ' +
              'a card: ' +
              "pass the scanned text as --barcode '...' (split with --key and the WPK_* layout) or its " +
              'card-session part as --card-session. ' +
              "Against the kit's sandbox none is needed: a card is issued through its POST /sandbox/cards.",
          ],
          'arguments',
        );
      }
      [cardSession, from] = [card.cardSession, 'sandbox'];
      if (!values.json)
        console.log(
          `card ${card.cardNumber} issued by the sandbox (POST /sandbox/cards), card session ${card.cardSession}`,
        );
    }
    const profile = (values.profile ?? (env.WPK_PAY_PROFILE || 'kit')) as PayProfile;
    const tokenHeader = values['token-header'] ?? (env.WPK_PAY_TOKEN_HEADER || DEFAULT_TOKEN_HEADER);
    const signer = 'module' in token ? await loadTokenSigner(token, key!, { field: '--token-module' }) : verifier;
    const tokenScheme = signer.tokenScheme ?? 'kit';
    const heading = formatPayCheckHeading({ baseUrl: url!, profile, tokenHeader, tokenScheme, cardSession });
    const report = await checkPayApi({
      baseUrl: url!,
      verifier: signer,
      cardSession,
      secrets: [key!],
      paths,
      profile,
      tokenHeader,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(dialect === undefined ? {} : { dialect }),
      onProgress: progressPrinter(heading, values.json ?? false, { verbose: values.verbose ?? false, profile }),
    });
    if (values.json) console.log(JSON.stringify({ ...report, cardSessionFrom: from }, null, 2));
    else for (const line of formatPayCheckSummary(report)) console.log(line);
    if (!report.ok) process.exitCode = 1;
  } finally {
    await verifier.close();
  }
}

/**
 * Text mode prints each operation's lines as soon as it is judged; on a
 * terminal a transient line on stderr says which call is under way (a
 * service that does not answer takes the whole timeout).
 */
function progressPrinter(heading: string, json: boolean, format: PayCheckFormat): (p: PayCheckProgress) => void {
  const tty = process.stderr.isTTY === true;
  let headed = false;
  return (p) => {
    if (p.type === 'start') {
      if (!json && !headed) console.log(heading);
      headed = true;
      if (tty) process.stderr.write(`\r\x1b[K  ... POST ${p.path}`);
      return;
    }
    if (tty) process.stderr.write('\r\x1b[K');
    if (!json) for (const line of formatPayCheckResult(p.result, format)) console.log(line);
  };
}
