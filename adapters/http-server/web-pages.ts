import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';

/** The console's pages, built by `npm run build:web` into `dist/web`. */
export type WebPage = 'wallet' | 'till' | 'merchant';

/** What a built page is served with: scripts and styles only from the server's own origin, no framing. */
export const WEB_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
    "media-src 'self' blob:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // The till page may use the camera (BarcodeDetector); nothing else may.
  'Permissions-Policy': 'camera=(self), microphone=(), geolocation=()',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

let root: string | undefined;

/**
 * `dist/web` of this package, found from this file whether it runs compiled (dist/src/...) or from source (src/...).
 */
export function webBuildDir(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  root = join(dir, 'dist', 'web');
  return root;
}

const notBuilt = (page: WebPage) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Not built</title>
<p>The ${page} page is not built. Run <code>npm run build:web</code> (part of <code>npm install</code>) and \
reload.</p></html>`;

const pages = new Map<WebPage, string>();

function pageHtml(page: WebPage, base: string): string | undefined {
  let html = pages.get(page);
  if (html === undefined) {
    const file = join(webBuildDir(), `${page}.html`);
    if (!existsSync(file)) return undefined;
    html = readFileSync(file, 'utf8');
    pages.set(page, html);
  }
  // Asset URLs in the build are relative (./assets/...): the base makes them resolve under the page's own prefix.
  return html.replace('<head>', `<head>\n<base href="${base}/">`);
}

/**
 * Serves a built page at `path` (and `path/`), and the build's assets under
 * `path/assets/`, each with {@link WEB_PAGE_HEADERS}. Until the build exists the
 * page answers 503 saying how to build it. Asset names are the bundler's
 * hashed file names: anything else, a `..` included, is a 404.
 *
 * @example
 * mountWebPage(app, '/sandbox/app', 'wallet');
 */
export function mountWebPage<E extends Env>(app: Hono<E>, path: string, page: WebPage): void {
  const servePage = (c: Context) => {
    const html = pageHtml(page, path);
    if (html === undefined) return c.html(notBuilt(page), 503, WEB_PAGE_HEADERS);
    return c.html(html, 200, { ...WEB_PAGE_HEADERS, 'Cache-Control': 'no-cache' });
  };
  app.get(path, servePage);
  app.get(`${path}/`, servePage);
  app.get(`${path}/assets/:name`, async (c) => {
    const name = c.req.param('name');
    const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || type === undefined) return c.text('not found', 404);
    try {
      const body = await readFile(join(webBuildDir(), 'assets', name));
      return c.body(body, 200, {
        ...WEB_PAGE_HEADERS,
        'Content-Type': type,
        'Cache-Control': 'public, max-age=31536000, immutable',
      });
    } catch {
      return c.text('not found', 404);
    }
  });
}

/** Forgets the pages read so far (a test that rebuilt them). */
export function forgetWebPages(): void {
  pages.clear();
}
