import type { z } from 'zod';

/**
 * What a tolerant read did not understand in a 2xx answer, as JSON paths
 * (`providers[0].Bank_Code`). Names and messages only, never values.
 */
export interface NotUnderstood {
  /** Fields the reader does not know (extras, other casings): ignored. */
  unknown: string[];
  /** Fields the reader would use, absent (or null): filled from the request or derived when possible, else left out. */
  missing: string[];
  /** `<field>: <message>` for optional fields present but unreadable: dropped. */
  invalid: string[];
}

/** A tolerant read: the value, or the `<field>: <message>` lines of required fields that are missing or invalid. */
export type Reading<T> =
  | { ok: true; value: T; notUnderstood: NotUnderstood }
  | { ok: false; errors: string[]; notUnderstood: NotUnderstood };

/** Whether anything was not understood. */
export function isUnderstood(n: NotUnderstood): boolean {
  return n.unknown.length === 0 && n.missing.length === 0 && n.invalid.length === 0;
}

type Report = NotUnderstood & { errors: string[] };
type Read = (
  value: unknown,
  path: string,
  r: Report,
  request: unknown,
) => { ok: true; value: unknown } | { ok: false; message: string };

/**
 * One field of an answer. `document`: named by the interface document and
 * needed, so missing or invalid fails the read (unless `fill` gives it);
 * `kit`: the kit's own, reported when absent; `optional`: absence is normal.
 * `fill` gives a value for an absent field from the request or the fields
 * read before it (declaration order).
 */
export interface Field<C> {
  kind: 'document' | 'kit' | 'optional';
  read: Read;
  fill?: (request: C, read: Record<string, unknown>) => unknown;
}

/** A field read by a zod schema. */
export function by<C>(kind: Field<C>['kind'], schema: z.ZodType, fill?: Field<C>['fill']): Field<C> {
  return {
    kind,
    read: (value) => {
      const parsed = schema.safeParse(value);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, message: parsed.error.issues[0]?.message ?? 'invalid' };
    },
    ...(fill ? { fill } : {}),
  };
}

/** A list of objects; entries that are not objects are reported invalid and dropped. */
export function listOf<C>(kind: Field<C>['kind'], fields: Record<string, Field<C>>, fill?: Field<C>['fill']): Field<C> {
  return {
    kind,
    read: (value, path, r, request) => {
      if (!Array.isArray(value)) return { ok: false, message: 'must be a list' };
      const out: unknown[] = [];
      value.forEach((entry, i) => {
        const read = readObject(entry, fields, request as C, `${path}[${i}]`, r);
        if (read !== undefined) out.push(read);
      });
      return { ok: true, value: out };
    },
    ...(fill ? { fill } : {}),
  };
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readObject<C>(
  value: unknown,
  fields: Record<string, Field<C>>,
  request: C,
  path: string,
  r: Report,
): Record<string, unknown> | undefined {
  if (!isObject(value)) {
    if (path === '') r.errors.push('body: must be a JSON object');
    else r.invalid.push(`${path}: must be a JSON object`);
    return undefined;
  }
  for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) r.unknown.push(join(path, key));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const at = join(path, key);
    const raw = Object.hasOwn(value, key) ? value[key] : undefined;
    if (raw !== undefined && raw !== null) {
      const read = field.read(raw, at, r, request);
      if (read.ok) {
        out[key] = read.value;
        continue;
      }
      // A named field that is there but wrong is not guessed around.
      if (field.kind === 'document') {
        r.errors.push(`${at}: ${read.message}`);
        continue;
      }
      r.invalid.push(`${at}: ${read.message}`);
    }
    const filled = field.fill?.(request, out);
    if (filled !== undefined) out[key] = filled;
    if (field.kind === 'document' && filled === undefined) r.errors.push(`${at}: missing`);
    else if (field.kind !== 'optional' && (raw === undefined || raw === null)) r.missing.push(at);
  }
  return out;
}

/**
 * Reads a parsed JSON answer tolerantly: known fields by their rules, unknown
 * ones ignored, everything not understood reported rather than thrown.
 */
export function readAnswer<T, C>(value: unknown, fields: Record<string, Field<C>>, request: C): Reading<T> {
  const r: Report = { unknown: [], missing: [], invalid: [], errors: [] };
  const out = readObject(value, fields, request, '', r);
  const notUnderstood = { unknown: r.unknown, missing: r.missing, invalid: r.invalid };
  if (out === undefined || r.errors.length > 0) return { ok: false, errors: r.errors, notUnderstood };
  return { ok: true, value: out as T, notUnderstood };
}
