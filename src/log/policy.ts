import type { Logger, LoggerOptions } from 'pino';

/**
 * The kit's logging policy: logs say what failed and where, never
 * with what. Errors are reduced to a whitelist of fields (no `params`, `query`,
 * `parameters`, `detail`, `where`, bodies, headers), messages of database
 * errors that quote input have the quoted values masked, and known secret or
 * data fields anywhere at the top two levels of a log line are removed.
 */

/** Error fields that say what failed without carrying request data. */
const SAFE_ERROR_FIELDS = [
  'code',
  'errno',
  'syscall',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'constraint',
  'dataType',
  'httpStatus',
  'status',
] as const;

/** Log fields removed wherever they appear (top level or one below). */
export const REDACTED_LOG_FIELDS: readonly string[] = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'token',
  'params',
  'parameters',
  'query',
  'body',
  'detail',
  'where',
  'webhookSecret',
  'callbackSecret',
  'partnerKey',
  'key',
  'cardKey',
  'cardSession',
  'fullBarcode',
  'barcode',
  'requestData',
];

const SQLSTATE = /^[0-9A-Z]{5}$/;
const QUOTED = /"(?:[^"]|"")*"/g;
const MAX_CAUSES = 3;

/**
 * The message of an error, its quoted values masked when it is a data error (SQLSTATE class 22) that may quote its
 * input.
 */
function safeMessage(error: Error & { code?: unknown }): string {
  const message = String(error.message);
  return typeof error.code === 'string' && SQLSTATE.test(error.code) && error.code.startsWith('22')
    ? message.replace(QUOTED, '"…"')
    : message;
}

/**
 * pino's `err` serializer under the policy: type, message (values masked for
 * data errors), stack, the {@link SAFE_ERROR_FIELDS} and the cause chain.
 * Whatever else an error carries (a PGlite error's `params`, a pg error's
 * `detail` and `where`, an HTTP client's request) is left out.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? value : { type: typeof value };
  const error = value as Error & Record<string, unknown>;
  const message = safeMessage(error);
  const out: Record<string, unknown> = { type: error.constructor?.name ?? 'Object', message };
  if (typeof error.stack === 'string') {
    const original = String(error.message);
    // The stack's first line repeats the message: it must not bring the values back.
    out.stack = message === original ? error.stack : error.stack.split(original).join(message);
  }
  for (const field of SAFE_ERROR_FIELDS) {
    const v = error[field];
    if (typeof v === 'string' || typeof v === 'number') out[field] = v;
  }
  if (error.cause !== undefined && depth < MAX_CAUSES) out.cause = serializeError(error.cause, depth + 1);
  if (Array.isArray(error.errors) && depth < MAX_CAUSES)
    out.errors = error.errors.slice(0, 5).map((e) => serializeError(e, depth + 1));
  return out;
}

/** The policy as pino options: serializers for `err` and `error`, and the redaction. */
export function logPolicyOptions(): Pick<LoggerOptions, 'serializers' | 'redact'> {
  return {
    serializers: { err: (e: unknown) => serializeError(e), error: (e: unknown) => serializeError(e) },
    redact: { paths: REDACTED_LOG_FIELDS.flatMap((f) => [f, `*.${f}`]), remove: true },
  };
}

/**
 * A child of `logger` under the policy, for loggers a caller hands in: the
 * policy holds whatever options their root was made with.
 *
 * @example
 * const log = withLogPolicy(options.logger ?? createLogger({ level: 'silent' }));
 */
export function withLogPolicy(logger: Logger): Logger {
  return logger.child({}, logPolicyOptions());
}
