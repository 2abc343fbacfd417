import type { z } from 'zod';
import { validationErrors } from '../contracts/validation-errors.js';
import { amountMismatch } from '../contracts/pay/amounts.js';
import type { Item } from '../contracts/pay/items.js';
import { DOCUMENT_FALLBACK, type Endpoint } from './endpoints.js';
import { PayError } from './errors.js';
import type { PayProfile, ResolvedPayClientOptions } from './options.js';

/** How this client calls one operation under its profile; null: no path (PAY_UNSUPPORTED). */
export interface Route {
  endpoint: Endpoint;
  path: string;
  url: string;
  request: z.ZodType;
  idempotent: boolean;
}

/** What goes on the wire: the exact text, and the object it was made from (answers are read against it). */
export interface Body {
  text: string;
  sent: Record<string, unknown>;
}

/** The operation under the client's profile and paths. */
export function routeOf(endpoint: Endpoint, o: ResolvedPayClientOptions): Route | null {
  const path = o.paths[endpoint.operation] ?? endpoint.path;
  if (o.profile === 'kit') {
    return { endpoint, path, url: o.baseUrl + path, request: endpoint.request, idempotent: endpoint.idempotent };
  }
  const use = endpoint.document ?? (o.paths[endpoint.operation] ? DOCUMENT_FALLBACK[endpoint.operation] : undefined);
  return use ? { endpoint, path, url: o.baseUrl + path, request: use.request, idempotent: use.idempotent } : null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Only what the caller gave: the checked output (its field order) without
 * the fields the schema filled in, so no default (`measure: "PIECE"`) reaches
 * a service that does not know it.
 */
function given(input: unknown, output: unknown): unknown {
  if (Array.isArray(input) && Array.isArray(output)) return output.map((o, i) => given(input[i], o));
  if (!isObject(input) || !isObject(output)) return output;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(output)) if (input[key] !== undefined) out[key] = given(input[key], value);
  return out;
}

/**
 * The JSON text to sign and send, refused (nothing sent) when invalid, outside the profile or against the
 * amounts rule.
 */
export function buildBody(route: Route, input: unknown, profile: PayProfile): Body {
  const { path } = route;
  const refuse = (errors: string[]) => {
    throw new PayError('BAD_REQUEST', `${path}: not sent, the body is invalid: ${errors.join('; ')}`, {
      errors,
      path,
      attempts: 0,
    });
  };
  if (profile === 'document' && isObject(input)) {
    const shape = (route.request as z.ZodObject).shape;
    const foreign = Object.keys(input).filter((k) => input[k] !== undefined && !Object.hasOwn(shape, k));
    if (foreign.length > 0) {
      refuse(foreign.map((k) => `${k}: not a field of the interface document for ${path} (profile 'document')`));
    }
  }
  const parsed = route.request.safeParse(input);
  if (!parsed.success) refuse(validationErrors(parsed.error as z.ZodError));
  const body = parsed.data as { items?: Item[]; discountAmount?: number; totalAmount?: number };
  if (route.endpoint.amounts && body.items !== undefined) {
    const line = amountMismatch(body.items, body.discountAmount!, body.totalAmount!);
    if (line !== undefined) {
      throw new PayError('AMOUNT_MISMATCH', `${path}: not sent: ${line}`, { errors: [line], path, attempts: 0 });
    }
  }
  const sent = given(input, body) as Record<string, unknown>;
  return { text: JSON.stringify(sent), sent };
}
