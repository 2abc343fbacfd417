import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Level, type Logger, pino } from 'pino';
import type { VerifierConfig } from '../../../adapters/node/config.js';
import { type Bridge, type BridgeOptions, createBridge } from '../../../adapters/ws/index.js';
import { createVerifier } from '../../../src/entries/index.js';
import type { Payments } from '../../../src/cashdesk/payments/api.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { RpcClient } from '../../support/ws-client.js';

/** The till every bridge test server knows. */
export const TILL = { id: 'till-1', key: 'till-key-0123456789abcdef' } as const;
/** A till every bridge test server knows that asked for its answers in call order. */
export const ORDERED_TILL = { id: 'till-ordered', key: 'till-key-ordered-0123456789', orderedAnswers: true } as const;

/** A bridge on a real HTTP server on 127.0.0.1, ephemeral port. */
export interface BridgeServer {
  /** `ws://127.0.0.1:<port>/ws` */
  url: string;
  bridge: Bridge;
  service: CashDeskService;
  server: Server;
  /** Closes bridge, HTTP server and verifier. */
  close(): Promise<void>;
}

/**
 * Starts verifier + service (with `payments` when given) + bridge + HTTP server,
 * routing `/ws` upgrades to the bridge as the real server does.
 */
export async function startBridgeServer(
  options: BridgeOptions = {},
  config: Partial<VerifierConfig> = {},
  payments?: Payments,
): Promise<BridgeServer> {
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW, ...config } as VerifierConfig);
  const service = new CashDeskService({
    verifier,
    tills: new TillRegistry([TILL, ORDERED_TILL]),
    ...(payments ? { payments } : {}),
  });
  const bridge = createBridge(service, options);
  const server = createServer();
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] === '/ws') bridge.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    bridge,
    service,
    server,
    close() {
      closing ??= (async () => {
        await bridge.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await verifier.close();
      })();
      return closing;
    },
  };
}

/** A pino logger whose records land in `records`, parsed, for asserting what the bridge logged. */
export function capturingLogger(level: Level = 'debug'): { logger: Logger; records: Array<Record<string, unknown>> } {
  const records: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        records.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, records };
}

/** Polls `condition` every 10 ms until it holds; fails after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Clients a test opens through `connect` (the shared till's key by default),
 * closed together by `closeAll` in the suite's afterEach.
 */
export function clientPool(url: () => string): {
  connect(options?: Parameters<typeof RpcClient.connect>[1], to?: string): Promise<RpcClient>;
  closeAll(): Promise<void>;
} {
  const clients: RpcClient[] = [];
  return {
    async connect(options = { key: TILL.key }, to = url()) {
      const client = await RpcClient.connect(to, options);
      clients.push(client);
      return client;
    },
    async closeAll() {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
  };
}
