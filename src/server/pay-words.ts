import type { Logger } from 'pino';
import type { PayClientEvent, PayOperation } from '../pay/events.js';

/** Counts one word the dialect does not know: `status` (a status word) or `code` (a refusal's code), by operation. */
export type NotUnderstoodCount = (kind: 'status' | 'code', operation: PayOperation) => void;

// Polling repeats an unknown status every few seconds: told once per transaction and word, among this many recent.
const REMEMBERED = 10_000;
const clip = (text: string) => (text.length > 256 ? `${text.slice(0, 256)}…` : text);

/**
 * Tells the operator what the Pay service said in words its dialect does not
 * map: one `warn` line and one count per unknown status of a transaction (not
 * one per poll) and per refusal with an unmapped code. The line holds the
 * words only (the status, or the code and the message), never a body or a
 * token; the dialect to extend is named.
 */
export function wordsNotUnderstood(
  log: Logger,
  count: NotUnderstoodCount | undefined,
): (event: PayClientEvent) => void {
  const told = new Set<string>();
  return (e) => {
    if (e.type === 'statusNotUnderstood') {
      const key = `${typeof e.transactionId}:${e.transactionId}:${e.status}`;
      if (told.has(key)) return;
      told.add(key);
      if (told.size > REMEMBERED) told.delete(told.values().next().value!);
      log.warn(
        { operation: e.operation, path: e.path, transactionId: e.transactionId, status: clip(e.status) },
        'pay status not understood: polled on as transit; add it to pay.dialect.statuses',
      );
      count?.('status', e.operation);
    } else if (e.type === 'codeNotUnderstood') {
      log.warn(
        {
          operation: e.operation,
          path: e.path,
          httpStatus: e.httpStatus,
          code: clip(e.code),
          messages: e.messages.slice(0, 5).map(clip),
        },
        'pay refusal not understood: told to the till as REFUSED; add its code to pay.dialect.errorCodes if the ' +
          'session should act on it',
      );
      count?.('code', e.operation);
    }
  };
}
