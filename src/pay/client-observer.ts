import type { Route } from './client-request.js';
import type { PayClientEvent } from './events.js';
import type { ResolvedPayClientOptions } from './options.js';

/** One attempt of one call: what its events and errors name. */
export interface AttemptScope {
  route: Route;
  /** 1 for the first try, 2 for the first retry... */
  attempt: number;
  /** The `x-request-id` sent with this attempt. */
  httpRequestId: string;
}

/** The fields every event about one attempt starts with. */
export function eventBase({ route, attempt, httpRequestId }: AttemptScope) {
  return { operation: route.endpoint.operation, path: route.path, attempt, httpRequestId };
}

/**
 * Hands `event` to the client's observer. Callers test `o.onEvent` first, so an unobserved client builds no
 * events at all.
 */
export function emitTo(o: ResolvedPayClientOptions, event: PayClientEvent): void {
  try {
    o.onEvent!(event);
  } catch {
    // An observer's bug must not turn a good call into a failed one.
  }
}
