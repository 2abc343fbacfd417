// The cash desk service: verification, till auth and metrics, shared by every
// transport (WebSocket bridge, HTTP). Transports import this; it imports no transport.
export { CashDeskService, type CashDeskServiceOptions, type Health } from './service.js';
export { TillRegistry, presentedKey, type Till, type TillCredentials } from './tills.js';
export { ServerMetrics, Counter, Histogram, SeriesCounter } from './metrics.js';
export { bonusSection, httpBonusHook, type BonusConfig, type BonusOutcome } from './bonus.js';
