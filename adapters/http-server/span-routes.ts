import type { Hono } from 'hono';
import { routeTable } from './route-table.js';
import type { RouteNamer } from '../../src/telemetry/http-span.js';
import type { NodeRoutes } from './node-routes.js';

/**
 * Names the route of a request path for its server span: a raw POST route by its exact path, else the route of
 * the Hono app that answers (`/v1/payments/{paymentId}`); undefined for an app whose routes cannot be seen here
 * (a starting app names its spans itself, through `createApiApp`).
 */
export function spanRoutes(app: object, nodeRoutes: NodeRoutes | undefined): RouteNamer {
  const routes = Array.isArray((app as Partial<Hono>).routes) ? routeTable(app as Hono) : undefined;
  return (path) => (nodeRoutes?.has(path) ? path : routes?.(path)?.route);
}
