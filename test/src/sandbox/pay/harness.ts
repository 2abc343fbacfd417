import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { FlattenedSign } from 'jose';
import { createVerifier, type PasswordScheme, type Verifier } from '../../../../src/entries/index.js';
import { tokenKeyOf } from '../../../../src/sandbox/pay/token.js';
import { createPayModule, type PayModuleOptions } from '../../../../src/sandbox/pay/index.js';
import type { RunningSandbox, SandboxOptions } from '../../../../src/entries/sandbox.js';
import { BASE_CONFIG, NOW } from '../../../support/fixtures.js';
import { testClock, type TestClock } from '../../../support/clock.js';
import { sandboxCases, startTestSandbox, type SandboxCase } from '../../../support/sandbox.js';

/**
 * Both password schemes (the README's Barcodes). The scheme decides one thing in
 * the sandbox: how the app draws a card's barcode (TOTP of the partner key, or
 * of a card key derived from it, with the session in the MAC) and whether the
 * app holds a card key. So the flows that start from a drawn card run under
 * both: checkout and card sessions, refunds, the state machine and webhooks
 * (`describe.each(sandboxSchemeCases(...))`, one sandbox per database for both
 * schemes, so the second scheme costs test time but no start-up), and
 * {@link PayHarness.card} scans every barcode it draws with the partner's
 * verifier, as a cash desk would. Where a start-up is the cost, a partner of
 * each scheme shares one: the restart test, the hostile-text checks (a card of
 * each), the Loyalty driver's barcodes (a card-bound merchant on the demo
 * merchant's database). The rest runs once, no barcode being drawn there: the
 * Push API and the outbox; the Pay token (getToken signs with the same token
 * key under both schemes: auth, token, lockout); injected faults and the
 * bank's timing (they act on a transaction, after the scan); the demo module's
 * routes and banner.
 */
export const SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];

/** The options a test sandbox is started with (the ones of a harness that are not the partner's). */
type StartOptions = Pick<HarnessOptions, 'payOptions' | 'realClock' | 'sandbox' | 'dbOptions' | 'clock'>;

/** A started sandbox, before any partner: what the harnesses of one database case share. */
interface Started {
  running: RunningSandbox;
  url: string;
  clock: TestClock;
  dbOptions: Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'>;
  now: () => number;
  request(method: string, path: string, text: string | undefined, headers: Record<string, string>): Promise<Answer>;
}

/**
 * One sandbox for the scheme cases of one database case: started by the first
 * harness asking for it, closed (and its database dropped) when the harness
 * of each scheme has closed, or at the file's end (a case filtered out or
 * failed). Each scheme case gets a partner of its own on it, so running a file
 * under both schemes costs no second sandbox start-up.
 */
export class SharedSandbox {
  #started: Promise<Started> | undefined;
  #options: string | undefined;
  #released = 0;

  constructor(private readonly dbCase: SandboxCase) {}

  get(options: StartOptions): Promise<Started> {
    const key = JSON.stringify(options);
    if (this.#options !== undefined && this.#options !== key)
      throw new Error('the scheme cases of one file must start the sandbox alike');
    this.#options = key;
    this.#started ??= startSandboxOnly(this.dbCase, options);
    return this.#started;
  }

  /** A scheme case is done with it: the last one closes it. */
  async release(): Promise<void> {
    if (++this.#released === SCHEMES.length) await this.close();
  }

  async close(): Promise<void> {
    const started = await this.#started?.catch(() => undefined);
    this.#started = undefined;
    if (started === undefined) return;
    await started.running.close();
    await this.dbCase.cleanup(started.dbOptions);
  }
}

/** A database case under one password scheme, for `describe.each`. */
export interface SchemeCase extends SandboxCase {
  readonly scheme: PasswordScheme;
  /** The sandbox this database case's scheme cases share. */
  readonly shared: SharedSandbox;
}

/**
 * Every database case under every scheme, for `describe.each`, named
 * `$name ($scheme)`. The two scheme cases of a database share one sandbox
 * (see {@link SharedSandbox}): call this at a file's top level, where it
 * registers the `afterAll` that closes them.
 */
export function sandboxSchemeCases(what: string): SchemeCase[] {
  const cases = sandboxCases(what).map((dbCase) => ({ dbCase, shared: new SharedSandbox(dbCase) }));
  afterAll(async () => {
    for (const { shared } of cases) await shared.close();
  });
  return cases.flatMap(({ dbCase, shared }) => SCHEMES.map((scheme) => ({ ...dbCase, scheme, shared })));
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
  /** The test clock; move it to move the sandbox and the verifier together. */
  readonly clock: TestClock;
  /** A signed Pay API call (a fresh token each time); `token` overrides it, null sends none. */
  pay<T = any>(path: string, body: unknown, options?: { token?: string | null; raw?: string }): Promise<Answer<T>>;
  /** A simulator or control call. */
  sim<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer<T>>;
  /**
   * Issues a card with a session: `{ cardNumber, cardSession, barcode, ... }`, its barcode scanned (verified) in the
   * partner's scheme.
   */
  card(extra?: Json): Promise<{ cardNumber: string; cardSession: string; barcode: string; cardKey: string | null }>;
  /** The app draws a card's barcode again (a new card session), scanned like {@link PayHarness.card}'s. */
  rescan(
    cardNumber: string,
  ): Promise<{ cardNumber: string; cardSession: string; barcode: string; cardKey: string | null }>;
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
export async function joseToken(
  text: string,
  {
    keyHex = BASE_CONFIG.key,
    iat,
    kid,
    jti = randomBytes(16).toString('base64url'),
  }: { keyHex?: string; iat: number; kid?: string; jti?: string },
): Promise<string> {
  const header = { alg: 'HS256', b64: false, crit: ['b64'], iat, jti, ...(kid === undefined ? {} : { kid }) };
  const jws = await new FlattenedSign(new TextEncoder().encode(text))
    .setProtectedHeader(header as never)
    .sign(tokenKeyOf(keyHex));
  return `${jws.protected}..${jws.signature}`;
}

let counter = 0;
/** A unique id for this test process. */
export function uid(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
}

/** Options of {@link startPayHarness}. */
export interface HarnessOptions {
  payOptions?: PayModuleOptions;
  realClock?: boolean;
  webhookUrl?: string;
  sandbox?: SandboxOptions;
  /**
   * The partner's scheme, and its verifier's; default: a scheme case's, else the partner's default (rfc6238) and the
   * verifier's.
   */
  scheme?: PasswordScheme;
  /** The database to use again (a restart); default a fresh one from `dbCase`. */
  dbOptions?: Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'>;
  /** Keep the database on close (to restart on it). */
  keepData?: boolean;
  partnerId?: string;
  clock?: TestClock;
}

async function startSandboxOnly(
  dbCase: SandboxCase,
  {
    payOptions = {},
    realClock = false,
    sandbox = {},
    dbOptions: given,
    clock = testClock(realClock ? 'wall' : NOW),
  }: StartOptions,
): Promise<Started> {
  const now = clock.now;
  const dbOptions = { ...(given ?? dbCase.options()), ...sandbox };
  const running = await startTestSandbox({ timeScale: 1000, clock: now, ...dbOptions }, [createPayModule(payOptions)]);
  const url = running.url;
  const request = async (
    method: string,
    path: string,
    text: string | undefined,
    headers: Record<string, string>,
  ): Promise<Answer> => {
    const res = await fetch(url + path, { method, headers, body: text });
    const body = await res.text();
    let parsed: unknown;
    try {
      parsed = body === '' ? undefined : JSON.parse(body);
    } catch {
      parsed = body;
    }
    return { status: res.status, body: parsed, text: body };
  };
  return { running, url, clock, dbOptions, now, request };
}

/**
 * Starts a sandbox over real HTTP with the Pay module (its own module object),
 * creates a partner with the fixtures' key and a verifier that signs for it
 * on the same clock. Given a {@link SchemeCase}, the partner is of the case's
 * scheme on the sandbox its database case shares (started by the first such
 * harness; the bank set back to approve and the faults cleared for the next
 * case); closing the harness then leaves that sandbox to the file's end.
 */
export async function startPayHarness(
  dbCase: SandboxCase | SchemeCase,
  { webhookUrl, keepData = false, partnerId = uid('partner'), ...options }: HarnessOptions = {},
): Promise<PayHarness & { dbOptions: Pick<SandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'> }> {
  const shared = 'shared' in dbCase ? dbCase.shared : undefined;
  const scheme = options.scheme ?? ('scheme' in dbCase ? dbCase.scheme : undefined);
  const { scheme: _, ...startOptions } = options;
  const started = shared ? await shared.get(startOptions) : await startSandboxOnly(dbCase, startOptions);
  const { running, url, clock, dbOptions, now, request } = started;
  const verifier = createVerifier({
    ...BASE_CONFIG,
    partnerId,
    clock: now,
    replay: false,
    ...(scheme ? { scheme } : {}),
  });
  const sim = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    request(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      body === undefined ? {} : { 'content-type': 'application/json' },
    );
  if (shared) {
    await sim('POST', '/sandbox/bank', { mode: 'approve' });
    await sim('DELETE', '/sandbox/faults');
  }
  const created = await sim('POST', '/sandbox/partners', {
    partnerId,
    key: BASE_CONFIG.key,
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(scheme ? { scheme } : {}),
  });
  if (created.status !== 200) throw new Error(`partner: ${created.text}`);
  const harness: PayHarness & { dbOptions: typeof dbOptions } = {
    url,
    running,
    verifier,
    partnerId,
    clock,
    dbOptions,
    pay(path, body, options = {}) {
      const text = options.raw ?? JSON.stringify(body);
      const token = options.token === undefined ? verifier.getToken(text) : options.token;
      return request('POST', path, text, {
        'content-type': 'application/json',
        ...(token === null ? {} : { 'x-wallet-token': token }),
      });
    },
    sim,
    async card(extra = {}) {
      const answer = await sim('POST', '/sandbox/cards', { partnerId, ...extra });
      if (answer.status !== 200) throw new Error(`card: ${answer.text}`);
      return scanned(answer.body);
    },
    async rescan(cardNumber) {
      const answer = await sim('POST', `/sandbox/cards/${encodeURIComponent(cardNumber)}/barcode`, { partnerId });
      if (answer.status !== 200) throw new Error(`rescan: ${answer.text}`);
      return scanned(answer.body);
    },
    checkoutBody(cardSession, requestId, extra = {}) {
      return {
        requestId,
        cardSession,
        items: [
          { name: 'Milk 3.2%', article: 'A-1', quantity: 2, price: 8990 },
          { name: 'Cheese', article: 'B-2', measure: 'GRAM', quantity: 350, price: 12 },
        ],
        discountAmount: 1000,
        totalAmount: 2 * 8990 + 350 * 12 - 1000,
        ...extra,
      };
    },
    async invoice(extra = {}) {
      const card = await harness.card();
      const requestId = uid('req');
      const answer = await harness.pay('/checkout', harness.checkoutBody(card.cardSession, requestId, extra));
      if (answer.status !== 200) throw new Error(`checkout: ${answer.text}`);
      return {
        transactionId: answer.body.transactionId,
        cardSession: card.cardSession,
        cardNumber: card.cardNumber,
        requestId,
      };
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
      await verifier.close();
      if (shared) return shared.release();
      await running.close();
      if (!keepData) await dbCase.cleanup(dbOptions);
    },
  };

  /**
   * What a cash desk does with a barcode the app shows: verify it (in the partner's scheme) and take its card session.
   */
  function scanned<T extends { barcode: string; cardNumber: string; cardSession: string | null }>(card: T): T {
    const result = verifier.barcodeVerify(card.barcode);
    const expected = card.cardSession === null ? 'CARDSESSION_NOT_AVAILABLE' : 'CARDSESSION_AVAILABLE';
    if (
      result.resultCode !== expected ||
      result.cardNumber !== card.cardNumber ||
      result.cardSession !== card.cardSession
    ) {
      throw new Error(`the ${scheme ?? 'default'} verifier read the drawn barcode as ${JSON.stringify(result)}`);
    }
    return card;
  }
  return harness;
}
