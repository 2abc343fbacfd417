/** Fields a driver may attach to a query's error that hold the query's data. */
const DATA_FIELDS = [
  'params',
  'parameters',
  'values',
  'queryOptions',
  'query',
  'detail',
  'where',
  'internalQuery',
] as const;

/**
 * Strips the data a driver attached to a failed query's error (PGlite's
 * `params`, `query` and `queryOptions`; pg's `detail`, `where` and
 * `internalQuery`) before it leaves the database layer, so nothing that logs
 * or wraps the error can show partner keys, secrets or card numbers. The
 * SQLSTATE `code` and the message stay, so callers still branch on the code.
 * Returns the same error, for `throw scrubQueryError(error)`.
 */
export function scrubQueryError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const record = error as Record<string, unknown>;
  for (const field of DATA_FIELDS) {
    if (field in record) {
      try {
        delete record[field];
      } catch {
        // A frozen or getter-only field: nothing this layer can do; the log policy still drops it.
      }
    }
  }
  return error;
}
