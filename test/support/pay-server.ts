import type { SessionUpdate } from '../../src/contracts/cashdesk-payments.js';
import { demoConfig } from '../../src/demo.js';
import { resolveServeConfig, type ServeConfigInput } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { generateWebhookSecret } from '../../src/entries/webhooks.js';
import type { PaySandbox, Simulator } from '../src/pay/sandbox-harness.js';
import { RpcClient } from './ws-client.js';
import type { TestClock } from './clock.js';

/** The demo till's key. */
export const TILL_KEY: string = demoConfig.tills[0].key;

/** The demo verifier's partner. */
export const PARTNER_ID = demoConfig.verifier.partnerId;

/** 2 x 89.90 milk, 350 g of cheese at 1.20 per gram, 10.00 paid with points: 589.80 through the wallet. */
export const BASKET = {
  items: [
    { name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 },
    { name: 'Сыр', article: 'CHEESE', measure: 'GRAM', quantity: 350, price: 120 },
  ],
  discountAmount: 1_000,
};
export const TOTAL = 2 * 8_990 + 350 * 120 - 1_000;

/** A till on the bridge that keeps every `pay.sessionUpdated` it gets. */
export class Till {
  readonly updates: SessionUpdate[] = [];
  readonly #waiters = new Set<() => void>();

  private constructor(readonly rpc: RpcClient) {
    void this.#read();
  }

  static async connect(wsUrl: string, key = TILL_KEY): Promise<Till> {
    return new Till(await RpcClient.connect(wsUrl, { key }));
  }

  call<R = any>(method: string, params?: unknown): Promise<R> {
    return this.rpc.call<R>(method, params);
  }

  /** The first update (from `from` on) that matches; waits for it to come. */
  async until(match: (u: SessionUpdate) => boolean, from = 0, timeoutMs = 20_000): Promise<SessionUpdate> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.updates.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching pay.sessionUpdated; got ${JSON.stringify(this.updates)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(1, deadline - Date.now()));
        this.#waiters.add(wake);
      });
    }
  }

  /** Updates of one payment, in arrival order. */
  of(paymentId: string): SessionUpdate[] {
    return this.updates.filter((u) => u.paymentId === paymentId);
  }

  close() {
    return this.rpc.close();
  }

  async #read(): Promise<void> {
    for (;;) {
      let frame: any;
      try {
        frame = await this.rpc.next(3_600_000);
      } catch {
        return;
      }
      if (frame?.method === 'pay.sessionUpdated') {
        this.updates.push(frame.params);
        for (const wake of [...this.#waiters]) wake();
      }
    }
  }
}

/** How to start a cash desk server against a sandbox. */
export interface PayServerOptions {
  /** Mount POST /webhooks/pay and point the sandbox's webhooks at it (default true); false: polling only. */
  webhook?: boolean;
  database?: ServeConfigInput['database'];
  pollIntervalMs?: number;
  clock?: TestClock;
  port?: number;
  /** The tills and their keys (default: the demo till). */
  tills?: ServeConfigInput['tills'];
  /** The back-office keys (default none). */
  backOffice?: ServeConfigInput['backOffice'];
  /** More of the `pay` section, e.g. a dialect file's `dialect` and `unknownStatusTimeoutMs`. */
  pay?: Record<string, unknown>;
}

/** A cash desk server with payments, wired to a sandbox. */
export interface PayServer {
  readonly server: RunningServer;
  readonly sim: Simulator;
  /** Bridge connections opened by `connect`, closed by `close`. */
  connect(key?: string): Promise<Till>;
  close(): Promise<void>;
}

/** The serve configuration for payments against `sandbox` (its webhooks pointed at `serverUrl` when given). */
export function payConfig(sandboxUrl: string, options: PayServerOptions & { webhookSecret?: string }) {
  return resolveServeConfig(
    {
      ...demoConfig,
      server: { port: options.port ?? 0 },
      ...(options.tills ? { tills: options.tills } : {}),
      ...(options.backOffice ? { backOffice: options.backOffice } : {}),
      pay: {
        url: sandboxUrl,
        ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
        pollIntervalMs: options.pollIntervalMs ?? (options.webhookSecret ? 60_000 : 20),
        adoptIntervalMs: 50,
        ...options.pay,
      },
      ...(options.database ? { database: options.database } : {}),
    },
    {},
  );
}

/**
 * Starts a server on the demo config with payments against the sandbox; with a webhook, the sandbox's partner posts to
 * it.
 */
export async function startPayServer(sandbox: PaySandbox, options: PayServerOptions = {}): Promise<PayServer> {
  const webhookSecret = options.webhook === false ? undefined : generateWebhookSecret();
  const server = await startServer(payConfig(sandbox.url, { ...options, webhookSecret }), undefined, {
    clock: options.clock?.now,
  });
  await sandbox.sim.partner({
    partnerId: PARTNER_ID,
    key: demoConfig.verifier.key,
    webhookUrl: webhookSecret ? `${server.url}/webhooks/pay` : null,
    ...(webhookSecret ? { webhookSecret } : {}),
  });
  const tills: Till[] = [];
  return {
    server,
    sim: sandbox.sim,
    async connect(key = TILL_KEY) {
      const till = await Till.connect(server.wsUrl, key);
      tills.push(till);
      return till;
    },
    async close() {
      await Promise.all(tills.map((t) => t.close()));
      await server.close();
    },
  };
}
