// The kit's metrics on prom-client: one registry per server, and a counter with bound series for hot paths.
export { Counter, type CounterSeries, type Labels } from './counter.js';
export { Histogram } from './histogram.js';
export { httpRequestsCounter } from './http-requests.js';
export { METRICS_CONTENT_TYPE, renderMetrics, serverRegistry } from './registry.js';
