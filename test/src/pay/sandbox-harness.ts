import { readFileSync } from 'node:fs';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { sandboxCases, startTestSandbox } from '../../support/sandbox.js';

/** A card as the sandbox's wallet app issues it. */
export interface SandboxCard {
  cardNumber: string;
  /** Null for an rfc6238 partner (the default). */
  cardKey: string | null;
  cardSession: string;
  barcode: string;
}

/** What a card's provider list answers: the sandbox's per-customer settings (both default true). */
export interface CardProviders {
  walletPayIsDefault?: boolean;
  /** false: every provider is unavailable, each with its message. */
  payEnabled?: boolean;
  /** The card number to issue (default: a new one). */
  cardNumber?: string;
  /** The card session to open (default: a new random one). */
  cardSession?: string;
}

/** The sandbox's wallet-app simulator and test controls, over HTTP. */
export class Simulator {
  constructor(readonly url: string) {}

  async post<T = any>(path: string, body: unknown = {}): Promise<T> {
    const res = await fetch(this.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async get<T = any>(path: string): Promise<T> {
    const res = await fetch(this.url + path);
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  issueCard(providers: CardProviders = {}): Promise<SandboxCard> {
    return this.post('/sandbox/cards', { ...providers });
  }
  rescan(cardNumber: string): Promise<SandboxCard> {
    return this.post(`/sandbox/cards/${encodeURIComponent(cardNumber)}/barcode`, {});
  }
  async invoices(
    cardNumber: string,
  ): Promise<
    Array<{ transactionId: string; requestId: string; status: string; totalAmount: number; cardSession: string }>
  > {
    return (await this.get<{ invoices: any[] }>(`/sandbox/app/invoices?cardNumber=${encodeURIComponent(cardNumber)}`))
      .invoices;
  }
  confirm(transactionId: string | number) {
    return this.post(`/sandbox/app/transactions/${transactionId}/confirm`);
  }
  decline(transactionId: string | number, reason?: 'DECLINED' | 'INSUFFICIENT_FUNDS') {
    return this.post(`/sandbox/app/transactions/${transactionId}/decline`, reason ? { reason } : {});
  }
  cancelInApp(transactionId: string | number) {
    return this.post(`/sandbox/app/transactions/${transactionId}/cancel`);
  }
  /**
   * The bank's answer to the next confirmations, `delayMs` after each, having received it after `receiveMs` (sandbox
   * ms).
   */
  bank(mode: 'approve' | 'decline' | 'insufficient' | 'technical', delayMs = 0, receiveMs = 0) {
    return this.post('/sandbox/bank', { mode, delayMs, receiveMs });
  }
  fault(path: string, action: 'drop-after-commit' | 'fail-before-commit' | 'delay', count = 1, delayMs?: number) {
    return this.post('/sandbox/faults', { path, action, count, ...(delayMs === undefined ? {} : { delayMs }) });
  }
  transaction(transactionId: string | number): Promise<any> {
    return this.get(`/sandbox/transactions/${transactionId}`);
  }
  partner(body: {
    partnerId: string;
    key: string;
    webhookUrl?: string | null;
    webhookSecret?: string;
  }): Promise<{ partnerId: string; webhookSecret: string }> {
    return this.post('/sandbox/partners', body);
  }
}

/** A running demo sandbox with its simulator. */
export interface PaySandbox {
  readonly url: string;
  readonly sim: Simulator;
  readonly running: RunningSandbox;
  close(): Promise<void>;
}

/** A database a demo sandbox runs on; every Pay test over HTTP runs on each. */
export interface PaySandboxCase {
  readonly name: 'pglite' | 'postgres';
  start(clock: () => number): Promise<PaySandbox>;
}

function wrap(running: RunningSandbox): PaySandbox {
  return { url: running.url, sim: new Simulator(running.url), running, close: () => running.close() };
}

const DEMO = { demo: true, timeScale: 1000 } as const;

/** The test sandbox's database cases, each starting the demo sandbox (Pay with its simulator) on a clock. */
export function paySandboxCases(what: string): PaySandboxCase[] {
  return sandboxCases(what).map((dbCase) => ({
    name: dbCase.name,
    start: async (clock) => wrap(await dbCase.start({ ...DEMO, clock })),
  }));
}

/** A PGlite sandbox speaking `dialect` (the kit's own, or the foreign one that tests the kit's dialect map). */
export async function startDialectSandbox(clock: () => number, dialect: 'kit' | 'foreign'): Promise<PaySandbox> {
  return wrap(await startTestSandbox({ ...DEMO, clock, dialect }));
}

/** The `pay` section of examples/dialects/sandbox-foreign.json: the kit configured for the foreign sandbox. */
export const FOREIGN_DIALECT_PAY = (
  JSON.parse(readFileSync(new URL('../../../examples/dialects/sandbox-foreign.json', import.meta.url), 'utf8')) as {
    pay: Record<string, unknown>;
  }
).pay;
