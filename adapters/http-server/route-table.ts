import type { Hono } from 'hono';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Hono route path (`/a/:id`, `/a/:id{[0-9]+}`, `/a/:id?`, `/a/*`) as a regular expression over request paths. */
export function routePattern(path: string): RegExp {
  if (path === '/' || path === '') return /^\/?$/;
  let source = '';
  for (const segment of path.replace(/^\//, '').split('/')) {
    if (segment === '*') {
      source += '(?:/.*)?';
      continue;
    }
    const param = /^:[\w-]+(?:\{(.+)\})?(\?)?$/.exec(segment);
    if (param) {
      const part = `/(?:${param[1] ?? '[^/]+'})`;
      source += param[2] ? `(?:${part})?` : part;
    } else {
      source += `/${escapeRegExp(segment)}`;
    }
  }
  return new RegExp(`^${source}/?$`);
}

/** A path's routes: the methods it is served under, and the route's name for metrics (`:id` written `{id}`). */
export interface PathRoutes {
  methods: readonly string[];
  route: string;
}

/**
 * The routes a request path matches, from the app's routes (middleware
 * excluded), HEAD counted with GET; undefined when none does. Compiled once
 * the routes stop changing.
 */
export function routeTable(app: Pick<Hono, 'routes'>): (path: string) => PathRoutes | undefined {
  let compiled: Array<CompiledRoute & { route: string }> = [];
  let seen = -1;
  return (path) => {
    if (seen !== app.routes.length) {
      compiled = app.routes
        .filter((r) => r.method !== 'ALL')
        .map((r) => ({
          method: r.method.toUpperCase(),
          pattern: routePattern(r.path),
          route: r.path.replace(/:([\w-]+)(?:\{[^}]*\})?\??/g, '{$1}'),
        }));
      seen = app.routes.length;
    }
    const methods = new Set<string>();
    let route: string | undefined;
    for (const r of compiled) {
      if (!r.pattern.test(path)) continue;
      methods.add(r.method);
      route ??= r.route;
    }
    if (route === undefined) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    return { methods: [...methods].sort(), route };
  };
}

/**
 * Which methods a path is served under, from the app's routes, for a `405`
 * with `Allow` (RFC 9110 15.5.6) rather than a 404 or the 401 of an auth
 * middleware that would run first. Middleware (`use`, method `ALL`) is not a
 * route. The table is compiled once the routes stop changing.
 */
export function methodTable(
  app: Pick<Hono, 'routes'>,
): (path: string, method: string) => readonly string[] | undefined {
  let compiled: CompiledRoute[] = [];
  let seen = -1;
  return (path, method) => {
    if (seen !== app.routes.length) {
      compiled = app.routes
        .filter((r) => r.method !== 'ALL')
        .map((r) => ({ method: r.method.toUpperCase(), pattern: routePattern(r.path) }));
      seen = app.routes.length;
    }
    const allowed = new Set<string>();
    for (const route of compiled) if (route.pattern.test(path)) allowed.add(route.method);
    if (allowed.size === 0) return undefined;
    // Hono answers HEAD for every GET route.
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.has(method.toUpperCase())) return undefined;
    return [...allowed].sort();
  };
}
