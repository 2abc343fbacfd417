import { serveHttp } from '../../adapters/http/serve.js';
import { createSandbox, type Sandbox } from './app.js';
import type { SandboxModule } from './module.js';
import { SANDBOX_MODULES } from './modules.js';
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

/**
 * Starts the wallet-service sandbox on `host:port` (default 127.0.0.1:8090;
 * port 0 picks a free one).
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, demo: true });
 * console.log(sandbox.url);
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}, modules: readonly SandboxModule[] = SANDBOX_MODULES): Promise<RunningSandbox> {
  const { host, port, limits } = resolveSandboxOptions(options);
  const sandbox = await createSandbox(options, modules);
  let http;
  try {
    http = await serveHttp(sandbox.app, { host, port, limits });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  sandbox.start();
  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    port: Number(new URL(http.url).port),
    sandbox,
    close() {
      closing ??= (async () => {
        // Event streams never end by themselves: end them, or the drain would wait for them.
        sandbox.context.changes.close();
        await http.close();
        await sandbox.close();
      })();
      return closing;
    },
  };
}
