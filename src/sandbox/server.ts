import { serveWhileBuilding } from '../../adapters/http-server/serve-while-building.js';
import { preloadPglite } from '../db/pglite-preload.js';
import type { Sandbox } from './app.js';
import type { SandboxModule } from './module.js';
import { resolveSandboxOptions, type SandboxOptions } from './options.js';

/** A listening sandbox. */
export interface RunningSandbox {
  /** `http://host:port` */
  readonly url: string;
  readonly port: number;
  readonly sandbox: Sandbox;
  /** Stops listening, lets requests in flight finish, stops background work, closes the database. */
  close(): Promise<void>;
}

/** Options of {@link startSandbox}: the sandbox's, and a call when it listens. */
export type StartSandboxOptions = SandboxOptions & {
  /**
   * Called with the URL as soon as the port is bound: with PGlite in memory that
   * is before the database is open (requests meanwhile wait for it, `/healthz`
   * answers 503 `starting`), so a CLI can print its banner at once; otherwise
   * once the database is ready, so a locked folder or an unreachable server
   * fails before anything listens.
   */
  onListening?: (url: string) => void;
};

/**
 * Starts the wallet-service sandbox on `host:port` (default 127.0.0.1:8090;
 * port 0 picks a free one). Resolves once it is ready: database open,
 * migrations applied, demo records made, background work started.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, demo: true });
 * console.log(sandbox.url);
 * await sandbox.close();
 */
export async function startSandbox(
  options: StartSandboxOptions = {},
  modules?: readonly SandboxModule[],
): Promise<RunningSandbox> {
  const { onListening, ...sandboxOptions } = options;
  const { host, port, limits, dataDir, databaseUrl, trustedProxies } = resolveSandboxOptions(sandboxOptions);
  let sandbox: Sandbox | undefined;
  // Listen first only where nothing but a bug can fail after it (no folder lock, no server to reach).
  const { http: server, built: running } = await serveWhileBuilding(
    {
      host,
      port,
      limits,
      ...(trustedProxies === undefined ? {} : { trustedProxies }),
      early: dataDir === undefined && databaseUrl === undefined,
      ...(onListening ? { onListening } : {}),
    },
    async () => {
      // PGlite's wasm compiles on background threads while the sandbox's own code loads, after listening:
      // together they are most of a start-up.
      if (databaseUrl === undefined) void preloadPglite();
      const [{ createSandbox }, chosen] = await Promise.all([
        import('./app.js'),
        modules === undefined ? import('./modules.js').then((m) => m.SANDBOX_MODULES) : modules,
      ]);
      sandbox = await createSandbox(sandboxOptions, chosen);
      return sandbox;
    },
    (built) => built.app,
    async () => {
      await sandbox?.close();
    },
  );
  running.start();
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    sandbox: running,
    close() {
      closing ??= (async () => {
        // Event streams never end by themselves: end them, or the drain would wait for them.
        running.context.changes.close();
        await server.close();
        await running.close();
      })();
      return closing;
    },
  };
}
