// The `POST /v1/payments/{paymentId}/{path}` routes: the payment intents that declare such an HTTP twin.
import type { ZodType } from 'zod';
import { INTENT_NAMES, type IntentName, intentOf } from '../../src/cashdesk/payments/intents.js';

/** One `POST /v1/payments/{paymentId}/{path}`: its intent, body schema (none: no body, or `{}`) and summary. */
export interface IntentRoute {
  path: string;
  intent: IntentName;
  body?: ZodType;
  summary: string;
}

/** Each `POST /v1/payments/{paymentId}/{path}`, in the intents' order. */
export const INTENT_ROUTES: readonly IntentRoute[] = INTENT_NAMES.flatMap((intent) => {
  const http = intentOf(intent).http;
  if (http === undefined) return [];
  return [{ path: http.path, intent, ...(http.body === undefined ? {} : { body: http.body }), summary: http.summary }];
});
