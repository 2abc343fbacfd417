import { type HttpServerHandle, serveHttp, type ServeHttpOptions } from './serve.js';
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
 * Listens and builds a server's app, early or late as `options.early` says;
 * requests that come while it builds wait for it ({@link startingApp}). When
 * the build fails, the listener is closed, `undo` releases what the build
 * opened, and the error is thrown.
 *
 * @example
 * const { http, built } = await serveWhileBuilding({ port: 0, early: true, onListening: console.log },
 *   () => createSandbox(options), (s) => s.app, async () => {});
 */
export async function serveWhileBuilding<T>(
  options: ServeWhileBuildingOptions, build: () => Promise<T>, appOf: (built: T) => Parameters<ReturnType<typeof startingApp>['ready']>[0],
  undo: () => Promise<void>,
): Promise<{ http: HttpServerHandle; built: T }> {
  const { early, onListening, ...serve } = options;
  const app = startingApp();
  let http: HttpServerHandle | undefined;
  const listen = async () => {
    http = await serveHttp(app, serve);
    onListening?.(http.url);
    return http;
  };
  let built: T;
  try {
    if (early) await listen();
    built = await build();
    if (http === undefined) await listen();
  } catch (error) {
    app.failed();
    await http?.close();
    await undo();
    throw error;
  }
  app.ready(appOf(built));
  return { http: http!, built };
}
