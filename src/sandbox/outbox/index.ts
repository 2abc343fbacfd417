export type { Delivery } from './deliveries.js';
export { Outbox, type OutboxMessage, type OutboxOptions } from './outbox.js';
export { outboxMigrations } from './migrations.js';
export { nextDelayMs, RETRY_SCHEDULE_MS } from './schedule.js';
