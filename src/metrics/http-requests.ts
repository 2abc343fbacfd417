import { Counter } from './counter.js';

/**
 * `wpk_http_requests_total{route,status}`: every server of the kit counts its HTTP answers in this one series, made
 * here so that its name, help text and labels are the same wherever it is registered.
 */
export function httpRequestsCounter(): Counter<'route' | 'status'> {
  return new Counter('wpk_http_requests_total', 'HTTP requests by route and status code.', ['route', 'status']);
}
