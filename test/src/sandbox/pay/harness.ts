import { randomBytes } from 'node:crypto';
import { FlattenedSign } from 'jose';
import { createVerifier, type PasswordScheme, type Verifier } from '../../../../src/index.js';
import { tokenKeyOf } from '../../../../src/sandbox/pay/token.js';
import { openDatabase } from '../../../../src/db/index.js';
import { createPayModule, type PayModuleOptions } from '../../../../src/sandbox/pay/index.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../../src/sandbox/index.js';
import { BASE_CONFIG, NOW } from '../../../support/fixtures.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';
import { uniqueSchema } from '../../../support/databases.js';

/** Where a test sandbox keeps its data. */
export interface SandboxCase {
  readonly name: 'pglite' | 'postgres';
  /** Options that select the database (a schema of its own on PostgreSQL). */
  options(): Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'>;
  /** Drops what `options()` created. */
  cleanup(options: Pick<SandboxOptions, 'databaseSchema'>): Promise<void>;
}

/** PGlite in memory always; the PostgreSQL at DATABASE_URL when set (one line says so otherwise). */
export function sandboxCases(what: string): SandboxCase[] {
  const cases: SandboxCase[] = [{ name: 'pglite', options: () => ({}), cleanup: async () => {} }];
  if (haveService('DATABASE_URL', DATABASE_URL, `${what} on PostgreSQL`)) {
    cases.push({
      name: 'postgres',
      options: () => ({ databaseUrl: DATABASE_URL!, databaseSchema: uniqueSchema('pay') }),
      cleanup: async ({ databaseSchema }) => {
        const db = await openDatabase({ url: DATABASE_URL! });
        try { await db.exec(`DROP SCHEMA IF EXISTS "${databaseSchema}" CASCADE`); } finally { await db.close(); }
      },
    });
  }
  return cases;
}

/** Both password schemes, for the tests that run under each (the partner's and its verifier's). */
export const SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];

/** Every database case under every scheme: for `describe.each`, named `$name ($scheme)`. */
export function sandboxSchemeCases(what: string): Array<SandboxCase & { scheme: PasswordScheme }> {
  return sandboxCases(what).flatMap((dbCase) => SCHEMES.map((scheme) => ({ ...dbCase, scheme })));
}

type Json = Record<string, unknown>;

/** An HTTP answer: status and parsed JSON (and the exact text). */
export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
}

/** A running sandbox with one partner and helpers that act as the cash desk (signed Pay calls) and as the customer. */
export interface PayHarness {
  readonly url: string;
  readonly running: RunningSandbox;
  readonly verifier: Verifier;
  readonly partnerId: string;
  /** The test clock; move `clock.now` to move the sandbox and the verifier together. */
  readonly clock: { now: number };
  /** A signed Pay API call (a fresh token each time); `token` overrides it, null sends none. */
  pay<T = any>(path: string, body: unknown, options?: { token?: string | null; raw?: string }): Promise<Answer<T>>;
  /** A simulator or control call. */
  sim<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer<T>>;
  /** Issues a card with a session: `{ cardNumber, cardSession, barcode, ... }`. */
  card(extra?: Json): Promise<{ cardNumber: string; cardSession: string; barcode: string; cardKey: string | null }>;
  /** A valid checkout body for a card session. */
  checkoutBody(cardSession: string, requestId: string, extra?: Json): Json;
  /** Creates an invoice and answers its transactionId. */
  invoice(extra?: Json): Promise<{ transactionId: string; cardSession: string; cardNumber: string; requestId: string }>;
  /** Polls /status until `predicate` holds (real time, bounded). */
  waitStatus(transactionId: string, predicate: (state: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

/**
 * A token made with jose (an implementation we did not write) over any bytes,
 * with a chosen header: for stale, foreign-key or non-JSON cases.
 */
export async function joseToken(text: string, { keyHex = BASE_CONFIG.key, iat, kid, jti = randomBytes(16).toString('base64url') }:
  { keyHex?: string; iat: number; kid?: string; jti?: string }): Promise<string> {
  const header = { alg: 'HS256', b64: false, crit: ['b64'], iat, jti, ...(kid === undefined ? {} : { kid }) };
  const jws = await new FlattenedSign(new TextEncoder().encode(text)).setProtectedHeader(header as never).sign(tokenKeyOf(keyHex));
  return `${jws.protected}..${jws.signature}`;
}

let counter = 0;
/** A unique id for this test process. */
export function uid(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
}

/**
 * Starts a sandbox over real HTTP with the Pay module (its own module object),
 * creates a partner with the fixtures' key and a verifier that signs for it
 * on the same clock.
 */
export async function startPayHarness(
  dbCase: SandboxCase,
  { payOptions = {}, realClock = false, webhookUrl, sandbox = {}, dbOptions: given, keepData = false, partnerId = uid('partner'), clock = { now: realClock ? Date.now() : NOW },
    scheme }: {
    payOptions?: PayModuleOptions; realClock?: boolean; webhookUrl?: string; sandbox?: SandboxOptions;
    /** The partner's scheme, and its verifier's; default: the partner's default (rfc6238) and the verifier's. */
    scheme?: PasswordScheme;
    /** The database to use again (a restart); default a fresh one from `dbCase`. */
    dbOptions?: Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'>;
    /** Keep the database on close (to restart on it). */
    keepData?: boolean;
    partnerId?: string;
    clock?: { now: number };
  } = {},
): Promise<PayHarness & { dbOptions: Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'> }> {
  const now = realClock ? Date.now : () => clock.now;
  const dbOptions = { ...(given ?? dbCase.options()), ...sandbox };
  const running = await startSandbox({ port: 0, timeScale: 1000, clock: now, ...dbOptions }, [createPayModule(payOptions)]);
  const url = running.url;
  const verifier = createVerifier({ ...BASE_CONFIG, partnerId, clock: now, replay: false, ...(scheme ? { scheme } : {}) });
  const request = async (method: string, path: string, text: string | undefined, headers: Record<string, string>): Promise<Answer> => {
    const res = await fetch(url + path, { method, headers, body: text });
    const body = await res.text();
    let parsed: unknown = undefined;
    try { parsed = body === '' ? undefined : JSON.parse(body); } catch { parsed = body; }
    return { status: res.status, body: parsed, text: body };
  };
  const sim = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    request(method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? {} : { 'content-type': 'application/json' });
  const created = await sim('POST', '/sandbox/partners', { partnerId, key: BASE_CONFIG.key, ...(webhookUrl ? { webhookUrl } : {}), ...(scheme ? { scheme } : {}) });
  if (created.status !== 200) throw new Error(`partner: ${created.text}`);
  const harness: PayHarness & { dbOptions: typeof dbOptions } = {
    url, running, verifier, partnerId, clock, dbOptions,
    pay(path, body, options = {}) {
      const text = options.raw ?? JSON.stringify(body);
      const token = options.token === undefined ? verifier.getToken(text) : options.token;
      return request('POST', path, text, { 'content-type': 'application/json', ...(token === null ? {} : { 'x-wallet-token': token }) });
    },
    sim,
    async card(extra = {}) {
      const answer = await sim('POST', '/sandbox/cards', { partnerId, ...extra });
      if (answer.status !== 200) throw new Error(`card: ${answer.text}`);
      return answer.body;
    },
    checkoutBody(cardSession, requestId, extra = {}) {
      return {
        requestId, cardSession,
        items: [{ name: 'Milk 3.2%', article: 'A-1', quantity: 2, price: 8990 }, { name: 'Cheese', article: 'B-2', measure: 'GRAM', quantity: 350, price: 12 }],
        discountAmount: 1000, totalAmount: 2 * 8990 + 350 * 12 - 1000, ...extra,
      };
    },
    async invoice(extra = {}) {
      const card = await harness.card();
      const requestId = uid('req');
      const answer = await harness.pay('/checkout', harness.checkoutBody(card.cardSession, requestId, extra));
      if (answer.status !== 200) throw new Error(`checkout: ${answer.text}`);
      return { transactionId: answer.body.transactionId, cardSession: card.cardSession, cardNumber: card.cardNumber, requestId };
    },
    async waitStatus(transactionId, predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await harness.pay('/status', { transactionId });
        if (predicate(answer.body)) return answer.body;
        if (Date.now() > deadline) throw new Error(`status never matched: ${answer.text}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      await running.close();
      if (!keepData) await dbCase.cleanup(dbOptions);
    },
  };
  return harness;
}
