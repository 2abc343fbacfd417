/** What a server calls: `fetch(request, env)`, as Hono apps and `serveHttp`'s `FetchApp` have it. */
interface Fetcher {
  fetch(request: Request, env: unknown): Response | Promise<Response>;
}

/** A server's app while it is still being built; see {@link startingApp}. */
export interface StartingApp extends Fetcher {
  /** The app is built: every request waiting and every later one goes to it. */
  ready(app: Fetcher): void;
  /** The start failed (the process is about to stop): waiting and later requests get 503. */
  failed(): void;
}

const HEADERS = { 'content-type': 'application/json' };

function json(status: number, body: object): Response {
  return new Response(JSON.stringify(body), { status, headers: HEADERS });
}

/**
 * Lets a server listen before its app exists (its database opening, its
 * migrations and demo records still to come): a request is held until the app
 * is ready, then answered by it, so it is answered as if it had come later,
 * never with an error for being early. Meanwhile `GET /livez` answers 200 and
 * `GET /healthz` 503 `{"status":"starting"}`, so a load balancer waits. If the
 * start fails, held and later requests get 503 `{"status":"unavailable"}`.
 *
 * @example
 * const app = startingApp();
 * const http = await serveHttp(app, { port: 0 });
 * console.log(`listening on ${http.url}`);
 * app.ready(await buildTheRealApp());
 */
export function startingApp(): StartingApp {
  let app: Fetcher | undefined;
  let broken = false;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const unavailable = () => json(503, { status: 'unavailable', failing: ['start-up'] });
  return {
    fetch(request, env) {
      if (app !== undefined) return app.fetch(request, env);
      if (broken) return unavailable();
      if (request.method === 'GET' || request.method === 'HEAD') {
        const path = new URL(request.url).pathname;
        if (path === '/livez') return json(200, { status: 'ok' });
        if (path === '/healthz') return json(503, { status: 'starting' });
      }
      return settled.then(() => (app === undefined ? unavailable() : app.fetch(request, env)));
    },
    ready(built) {
      app = built;
      settle();
    },
    failed() {
      broken = true;
      settle();
    },
  };
}
