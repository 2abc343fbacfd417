import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createVerifier } from '../../../adapters/node/verifier.js';
import { createPayClient, type PayClient } from '../../../src/pay/client.js';
import { ServeInstance } from '../../chaos/instances.js';
import { testClock } from '../../support/clock.js';
import { uniqueSchema } from '../../support/databases.js';
import { LIVE_KEY, LIVE_TILL_KEY, liveConfig } from '../../support/live-config.js';
import { BASKET, PARTNER_ID } from '../../support/pay-server.js';
import { dropSchema, startTestSandbox } from '../../support/sandbox.js';
import { DATABASE_URL } from '../../support/services.js';
import { FOREIGN_DIALECT_PAY, type PaySandbox, Simulator } from '../pay/sandbox-harness.js';
import { runCli } from './support.js';

/** The kit's dialect, and the foreign one the kit is configured for (examples/dialects/sandbox-foreign.json). */
export type Dialect = 'kit' | 'foreign';

const key = () => randomBytes(24).toString('base64url');
/** Two tills in two stores; a back office with two keys of different scopes. */
export const KEYS = { north: LIVE_TILL_KEY, south: key(), erp: key(), audit: key() };
export const TILLS = [
  { id: 'north-1', key: KEYS.north, store: 'north' },
  { id: 'south-1', key: KEYS.south, store: 'south' },
];

/** Failure bound on a state the code under test should reach (a pacing poll, not an expectation of time). */
const BOUND_MS = 60_000;

/** Polls `probe` until it returns a value; throws naming `what` when the bound passes. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A sandbox speaking a dialect, a `serve` child process on PostgreSQL configured for it, and the calls to both. */
export class FieldScene {
  readonly serve: ServeInstance;
  readonly configPath: string;
  /** The card each payment was paid with (the sandbox's records are read by card). */
  readonly cards = new Map<string, string>();
  readonly #dir: string;
  readonly #schema = uniqueSchema('field');

  private constructor(
    readonly dialect: Dialect,
    readonly sb: PaySandbox,
    /** A Pay API client of another system of the merchant's (same partner, same dialect). */
    readonly other: PayClient,
    readonly closeOther: () => Promise<void>,
  ) {
    this.#dir = mkdtempSync(join(tmpdir(), 'wpk-field-'));
    this.configPath = join(this.#dir, 'serve.json');
    const pay = {
      url: sb.url,
      pollIntervalMs: 100,
      // A killed server's leases lapse soon: the commands that follow find its payments as they would hours later.
      leaseMs: 1_000,
      threadNiceness: 0,
      ...(dialect === 'foreign' ? FOREIGN_DIALECT_PAY : {}),
    };
    const backOffice = [
      { id: 'erp', key: KEYS.erp, scopes: ['payments:read', 'payments:refund', 'reports:read'] },
      { id: 'audit', key: KEYS.audit, scopes: ['audit:read'] },
    ];
    const database = { url: DATABASE_URL!, schema: this.#schema };
    const config = { ...liveConfig(), tills: TILLS, backOffice, server: { port: 0, drainSeconds: 1 }, database, pay };
    writeFileSync(this.configPath, JSON.stringify(config));
    this.serve = new ServeInstance(`serve-${dialect}`, this.configPath);
  }

  /** Starts the sandbox (its partner polled, no webhook) and the server. */
  static async start(dialect: Dialect): Promise<FieldScene> {
    const running = await startTestSandbox({
      demo: true,
      timeScale: 1000,
      clock: testClock('wall').now,
      dialect,
      database: 'postgres',
    });
    const sb = { url: running.url, sim: new Simulator(running.url), running, close: () => running.close() };
    await sb.sim.partner({ partnerId: PARTNER_ID, key: LIVE_KEY, webhookUrl: null });
    const signer = createVerifier({ ...liveConfig().verifier, replay: false, lockout: false } as never);
    const dialectConfig = dialect === 'foreign' ? (FOREIGN_DIALECT_PAY.dialect as never) : undefined;
    const other = createPayClient({
      baseUrl: sb.url,
      verifier: signer,
      ...(dialectConfig ? { dialect: dialectConfig } : {}),
    });
    const scene = new FieldScene(dialect, sb, other, () => signer.close());
    await scene.serve.start();
    return scene;
  }

  /** An HTTP call to the server with a Bearer key. */
  async call(method: string, path: string, bearer: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(this.serve.url + path, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** A till's payment view. */
  async view(tillKey: string, paymentId: string): Promise<any> {
    return (await this.call('GET', `/v1/payments/${paymentId}`, tillKey)).body;
  }

  /** What the till's event stream of a payment (SSE) replays, read until `text` shows. */
  async eventsUntil(tillKey: string, paymentId: string, text: string): Promise<string> {
    const abort = new AbortController();
    const response = await fetch(`${this.serve.url}/v1/payments/${paymentId}/events`, {
      headers: { authorization: `Bearer ${tillKey}`, 'last-event-id': '0' },
      signal: AbortSignal.any([abort.signal, AbortSignal.timeout(BOUND_MS)]),
    });
    let seen = '';
    const decoder = new TextDecoder();
    try {
      const reader = response.body!.getReader();
      while (!seen.includes(text)) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
      }
    } finally {
      abort.abort();
    }
    return seen;
  }

  /** Starts a payment and checks it out: its invoice waits in the customer's app. Answers its transactionId. */
  async checkout(tillKey: string, paymentId: string): Promise<string> {
    const card = await this.sb.sim.issueCard({ walletPayIsDefault: false });
    this.cards.set(paymentId, card.cardNumber);
    const started = await this.call('POST', '/v1/payments', tillKey, {
      fullBarcode: card.barcode,
      basket: BASKET,
      paymentId,
    });
    if (started.status !== 200) throw new Error(`start ${paymentId}: ${JSON.stringify(started.body)}`);
    const out = await this.call('POST', `/v1/payments/${paymentId}/checkout`, tillKey);
    if (out.status !== 200) throw new Error(`checkout ${paymentId}: ${JSON.stringify(out.body)}`);
    return String(out.body.transactionId);
  }

  /** The customer pays; resolves once the service says the transaction succeeded. */
  async customerPays(transactionId: string): Promise<void> {
    await this.sb.sim.confirm(transactionId);
    await until(`${transactionId} paid at the service`, async () =>
      (await this.sb.sim.transaction(transactionId)).status === 'succeeded' ? true : undefined,
    );
  }

  /** A sale paid and told to its till. */
  async sale(tillKey: string, paymentId: string): Promise<string> {
    const transactionId = await this.checkout(tillKey, paymentId);
    await this.customerPays(transactionId);
    await until(`${paymentId} succeeded`, async () =>
      (await this.view(tillKey, paymentId)).phase === 'succeeded' ? true : undefined,
    );
    return transactionId;
  }

  /** The sandbox's own records of every payment's card: its transactions with their refunds. */
  async sandboxRecords(): Promise<Array<{ paymentId: string; status: string; totalAmount: number; refunded: number }>> {
    const records = [];
    for (const [paymentId, cardNumber] of this.cards) {
      const { transactions } = await this.sb.sim.get<{ transactions: any[] }>(
        `/sandbox/app/transactions?cardNumber=${encodeURIComponent(cardNumber)}`,
      );
      for (const t of transactions) {
        const refunded = (t.refunds as Array<{ amount: number }>).reduce((sum, r) => sum + r.amount, 0);
        records.push({ paymentId, status: t.status as string, totalAmount: t.totalAmount as number, refunded });
      }
    }
    return records;
  }

  /** `wallet-partner-kit pay <args> --config <this server's>`, the server's database and dialect. */
  pay(...args: string[]) {
    return runCli(['pay', ...args, '--config', this.configPath], { LOG_LEVEL: 'error', DATABASE_URL: '' });
  }

  /** Resolves once no payment is leased any more: the killed server's leases have lapsed. */
  async leasesLapsed(): Promise<void> {
    const db = await this.database();
    try {
      const leased = 'SELECT count(*)::int AS n FROM cashdesk_payments WHERE lease_until > now()';
      await until('the leases lapse', async () => ((await db.query(leased)).rows[0].n === 0 ? true : undefined));
    } finally {
      await db.end();
    }
  }

  /** A client of the server's database, in its schema. */
  async database(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${this.#schema}` });
    await client.connect();
    return client;
  }

  async close(): Promise<void> {
    await this.serve.stop();
    await this.closeOther();
    await this.sb.close();
    await dropSchema(this.#schema).catch(() => {});
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
