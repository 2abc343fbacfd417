import { createServer, type IncomingMessage, type Server } from 'node:http';
import { basicAuthHeader } from '../../../../src/net/basic-auth.js';
import type { RunningSandbox, SandboxOptions } from '../../../../src/entries/sandbox.js';
import { uniqueSchema } from '../../../support/databases.js';
import { dropSchema, startTestSandbox } from '../../../support/sandbox.js';
import { DATABASE_URL } from '../../../support/services.js';

/**
 * Two sandboxes on one PostgreSQL schema (the second starts after the first migrated); the schema is dropped when the
 * second closes.
 */
export async function twoOnPostgres(options: SandboxOptions = {}): Promise<[RunningSandbox, RunningSandbox]> {
  const shared = { databaseUrl: DATABASE_URL!, databaseSchema: uniqueSchema('push2') };
  const first = await startTestSandbox({ ...options, ...shared });
  const second = await startTestSandbox({ ...options, ...shared });
  const close = second.close.bind(second);
  return [
    first,
    Object.assign(second, {
      close: async () => {
        await close();
        await dropSchema(shared.databaseSchema);
      },
    }),
  ];
}

/** A JSON call; `status`, parsed `body` (null when empty) and headers. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? null : (JSON.parse(text) as any),
  };
}

/** The Authorization header. */
export const basic = (login: string, password: string) => ({ authorization: basicAuthHeader(login, password) });

let counter = 0;
/** A login no other test of this process uses. */
export const freshLogin = (prefix = 'acct') => `${prefix}-${process.pid}-${++counter}`;

export const NEW_PASSWORD = 'a-new-password-for-tests';

/**
 * Creates an account through the test control and resets its password; answers the creation and the auth header to use.
 */
export async function readyAccount(base: string, extra: Record<string, unknown> = {}) {
  const login = freshLogin();
  const created = await call(base, 'POST', '/sandbox/push/accounts', { login, partner: 'partner-1', ...extra });
  if (created.status !== 200) throw new Error(`account creation answered ${created.status} ${created.text}`);
  const reset = await call(
    base,
    'PUT',
    '/public/user/reset-password',
    { password: NEW_PASSWORD },
    basic(login, created.body.password),
  );
  if (reset.status !== 200) throw new Error(`reset answered ${reset.status} ${reset.text}`);
  return {
    login,
    created: created.body as { password: string; callbackSecret: string },
    auth: basic(login, NEW_PASSWORD),
  };
}

/** A message body. */
export const message = { title: 'Autumn sale', text: 'Everything -20% until Sunday' };

/** `n` distinct valid numbers starting at `from`. */
export const numbers = (n: number, from = 79_990_000_000) => Array.from({ length: n }, (_, i) => String(from + i));

/** One webhook request as a receiver saw it. */
export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver for callbacks: answers `status()` (default 204), records every request. */
export async function receiver(
  status: () => number = () => 204,
  delayMs: () => number = () => 0,
): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => {
        res.statusCode = status();
        res.end();
      }, delayMs());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it returns a value that is not undefined (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
