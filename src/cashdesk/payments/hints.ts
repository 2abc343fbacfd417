import type { PaymentKey } from './rows.js';

/**
 * What one instance tells the others over the shared channel. A hint carries
 * no state: it says which rows to read, so a lost hint costs only time (the
 * rows are read again at the next renewal, poll or resynchronisation).
 */
export type Hint =
  /** A payment's events up to `seq` are written: instances with its till connected read and tell them. */
  | { kind: 'events'; from: string; tillId: string; paymentId: string; seq: number }
  /** A Pay webhook state was stored: the instance driving its payment reads it. */
  | { kind: 'state'; from: string; transactionId: string }
  /** An instance holds a till's intent for the payment: its owner hands it over once at rest. */
  | { kind: 'wanted'; from: string; tillId: string; paymentId: string }
  /** The owner let the payment go: the instance that wanted it claims it now. */
  | { kind: 'released'; from: string; tillId: string; paymentId: string };

/** A hint as its sender writes it (the channel adds `from`). */
export type HintBody = Hint extends infer H ? (H extends Hint ? Omit<H, 'from'> : never) : never;

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 256;

/** Reads a hint; undefined for anything else on the channel (never trusted further than its shape). */
export function parseHint(payload: string): Hint | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || !text(value.from)) return undefined;
  switch (value.kind) {
    case 'events':
      return isKey(value) && Number.isSafeInteger(value.seq) ? (value as Hint) : undefined;
    case 'state':
      return text(value.transactionId) ? (value as Hint) : undefined;
    case 'wanted':
    case 'released':
      return isKey(value) ? (value as Hint) : undefined;
    default:
      return undefined;
  }
}

function isKey(value: Record<string, unknown>): value is Record<string, unknown> & PaymentKey {
  return text(value.tillId) && text(value.paymentId);
}
