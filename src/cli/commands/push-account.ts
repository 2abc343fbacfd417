import { parseCliArgs } from '../args.js';
import { migrate, openDatabase } from '../../db/index.js';
import { ArgumentError, ConfigError, KitError } from '../../errors.js';
import { createAccount } from '../../sandbox/push/accounts.js';
import { pushMigrations } from '../../sandbox/push/migrations.js';
import { CreateAccountRequest } from '../../sandbox/push/schemas.js';

/** Help text of `sandbox push-account`. */
export const PUSH_ACCOUNT_USAGE = `wallet-partner-kit sandbox push-account create --login L --partner P \
[--callback-url U] [--password P]
    [--callback-secret whsec_...] [--single-interval-ms N] [--batch-interval-ms N] [--no-simulate-delivery]
    (--url http://127.0.0.1:8090 | --data DIR) [--json]

Creates a Push API account in the sandbox and prints its login, initial password and callback secret (once).
  --url URL        a running sandbox (POST /sandbox/push/accounts); the way to reach one that keeps its data in memory
  --data DIR       the sandbox's data folder (PGlite), while that sandbox is stopped; DATABASE_URL selects a \
PostgreSQL server instead
  --password P     the initial password (12 to 128 characters); default a random one
  --json           print the answer as JSON`;

const OPTIONS = {
  login: { type: 'string' },
  partner: { type: 'string' },
  'callback-url': { type: 'string' },
  password: { type: 'string' },
  'callback-secret': { type: 'string' },
  'single-interval-ms': { type: 'string' },
  'batch-interval-ms': { type: 'string' },
  'no-simulate-delivery': { type: 'boolean' },
  url: { type: 'string' },
  data: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

const FLAG: Record<string, string> = {
  login: '--login',
  partner: '--partner',
  callbackUrl: '--callback-url',
  password: '--password',
  callbackSecret: '--callback-secret',
  singleIntervalMs: '--single-interval-ms',
  batchIntervalMs: '--batch-interval-ms',
};

function integer(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
}

interface Created {
  login: string;
  partner: string;
  password: string;
  callbackSecret: string;
  callbackUrl: string | null;
}

async function overHttp(base: string, input: CreateAccountRequest): Promise<Created> {
  let response: Response;
  try {
    response = await fetch(new URL('/sandbox/push/accounts', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (cause) {
    throw new KitError('BACKEND_UNAVAILABLE', `no sandbox answers at ${base} (${(cause as Error).message})`, { cause });
  }
  const body = (await response.json().catch(() => null)) as ({ errors?: string[] } & Created) | null;
  if (response.status === 200 && body) return body;
  throw new ArgumentError(body?.errors ?? [`the sandbox answered HTTP ${response.status}`], 'push account');
}

async function inDatabase(options: { url?: string; dataDir?: string }, input: CreateAccountRequest): Promise<Created> {
  const db = await openDatabase(options);
  try {
    await migrate(db, 'push', pushMigrations);
    const created = await createAccount(db, Date.now(), input);
    if (created === undefined) throw new ArgumentError([`--login: ${input.login} exists`], 'push account');
    return created;
  } finally {
    await db.close();
  }
}

/**
 * `sandbox push-account create ...`: creates a sandbox Push account through a
 * running sandbox (`--url`) or in its database (`--data DIR`, or DATABASE_URL),
 * and prints the initial password and the callback secret once.
 *
 * @example
 * await pushAccount(['create', '--login', 'shop-1', '--partner', 'shop', '--url', 'http://127.0.0.1:8090']);
 */
export async function pushAccount(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === 'help') {
    console.log(PUSH_ACCOUNT_USAGE);
    return;
  }
  if (action !== 'create')
    throw new ArgumentError([`${action}: unknown action (create is the one there is)`], 'push-account command');
  const { values } = parseCliArgs({ args: rest, options: OPTIONS, strict: true });
  if (values.help) {
    console.log(PUSH_ACCOUNT_USAGE);
    return;
  }
  const parsed = CreateAccountRequest.safeParse({
    login: values.login,
    partner: values.partner,
    callbackUrl: values['callback-url'],
    password: values.password,
    callbackSecret: values['callback-secret'],
    singleIntervalMs: integer(values['single-interval-ms']),
    batchIntervalMs: integer(values['batch-interval-ms']),
    simulateDelivery: values['no-simulate-delivery'] ? false : undefined,
  });
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((i) => {
        const key = String(i.path[0] ?? '');
        return (
          `${FLAG[key] ?? key}: ` +
          `${i.input === undefined && (key === 'login' || key === 'partner') ? 'is required' : i.message}`
        );
      });
  const databaseUrl = env.DATABASE_URL || undefined;
  if (values.url !== undefined && values.data !== undefined) issues.push('--url, --data: give one');
  if (values.url === undefined && values.data === undefined && databaseUrl === undefined) {
    issues.push(
      '--url or --data: needed (or DATABASE_URL); a sandbox that keeps its data in memory can only be reached ' +
        'with --url',
    );
  }
  if (values.url !== undefined && !/^https?:\/\/[^\s]+$/.test(values.url)) issues.push('--url: must be an http(s) URL');
  if (!parsed.success || issues.length > 0) throw new ConfigError(issues, 'push-account options');

  const input = parsed.data;
  const created =
    values.url !== undefined
      ? await overHttp(values.url, input)
      : await inDatabase(values.data !== undefined ? { dataDir: values.data } : { url: databaseUrl! }, input);
  if (values.json) {
    console.log(JSON.stringify(created, null, 2));
    return;
  }
  console.log(
    [
      'Push account created (the password and the secret are shown this once):',
      `  login            ${created.login}`,
      `  partner          ${created.partner}`,
      `  password         ${created.password}   (initial: reset it with PUT /public/user/reset-password)`,
      `  callback secret  ${created.callbackSecret}`,
      `  callback URL     ${created.callbackUrl ?? '(none: no callbacks until one is set)'}`,
    ].join('\n'),
  );
}
