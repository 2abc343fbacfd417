import { type FetchApp, type HttpServerHandle, serveHttp, type ServeHttpOptions } from './serve.js';
import { startingApp } from './starting-app.js';

/** Where a server listens and when; see {@link serveWhileBuilding}. */
export interface ServeWhileBuildingOptions extends ServeHttpOptions {
  /**
   * Listen before building (true only where nothing but a bug can fail after
   * listening: no folder to lock, no database server to reach), so a CLI can
   * print its banner at once; else listen once built, so such a failure comes
   * before anything listens.
   */
  early: boolean;
  /** Called with the URL as soon as the server listens. */
  onListening?: (url: string) => void;
}

/**
 * The one start of every server of the kit (cash desk, sandbox, Loyalty
 * server): listens and builds its app, early or late as `options.early`
 * says. Early, requests that come while it builds wait for it
 * ({@link startingApp}); late, the built app itself is served, its raw routes
 * (node-routes.ts: the cash desk's verify path) included. When the build or
 * the listen fails, the listener is closed, `undo` releases what the build
 * opened, and the error is thrown.
 *
 * @example
 * const { http, built } = await serveWhileBuilding({ port: 0, early: true, onListening: console.log },
 *   () => createSandbox(options), (s) => s.app, async () => {});
 */
export async function serveWhileBuilding<T>(
  options: ServeWhileBuildingOptions,
  build: () => Promise<T>,
  appOf: (built: T) => FetchApp,
  undo: () => Promise<void>,
): Promise<{ http: HttpServerHandle; built: T }> {
  const { early, onListening, ...serve } = options;
  const starting = early ? startingApp() : undefined;
  let http: HttpServerHandle | undefined;
  const listen = async (app: FetchApp) => {
    http = await serveHttp(app, serve);
    onListening?.(http.url);
  };
  let built: T;
  try {
    if (starting !== undefined) await listen(starting);
    built = await build();
    if (starting === undefined) await listen(appOf(built));
  } catch (error) {
    starting?.failed();
    await http?.close();
    await undo();
    throw error;
  }
  starting?.ready(appOf(built));
  return { http: http!, built };
}
