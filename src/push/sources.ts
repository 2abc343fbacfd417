import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { MSISDN } from '../contracts/push/bodies.js';
import { PushError } from './errors.js';

/** Numbers for a campaign: an array, any iterable, or an async iterable (e.g. {@link readMsisdnFile}). */
export type MsisdnSource = Iterable<string> | AsyncIterable<string>;

/** Options of {@link readMsisdnFile}. */
export interface MsisdnFileOptions {
  /** `csv` or `ndjson`. Default: from the extension (`.ndjson`/`.jsonl` → ndjson, anything else csv). */
  format?: 'csv' | 'ndjson';
  /**
   * CSV: the column holding the number, by header name or 0-based index. Default: the column
   * named `msisdn`, `phone` or `number` when the first line is a header, else the first one.
   * NDJSON: the field of an object line. Default `msisdn`.
   */
  column?: string | number;
}

/**
 * The usual ways of writing a number, reduced to the Push API's form (digits,
 * country code first, no `+`): `+7 (999) 123-45-67` → `79991234567`.
 * Validity is then {@link isValidMsisdn}'s to say.
 */
export function normalizeMsisdn(raw: string): string {
  return raw
    .trim()
    .replace(/[\s\-().]/g, '')
    .replace(/^\+/, '');
}

/** True for what the Push API accepts: 11 to 15 digits, not starting with 0. */
export function isValidMsisdn(msisdn: string): boolean {
  return MSISDN.test(msisdn);
}

/** Splits one CSV line on `delimiter`, honouring double quotes (RFC 4180, one line per record). */
function splitCsv(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

const HEADER_NAMES = ['msisdn', 'phone', 'number'];

async function* csvNumbers(
  lines: AsyncIterable<string>,
  column: string | number | undefined,
  path: string,
): AsyncGenerator<string> {
  let delimiter = ',';
  let index: number | undefined = typeof column === 'number' ? column : undefined;
  let first = true;
  for await (const raw of lines) {
    const line = first ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    if (first) {
      first = false;
      if (!line.includes(',') && line.includes(';')) delimiter = ';';
      else if (!line.includes(',') && line.includes('\t')) delimiter = '\t';
      const fields = splitCsv(line, delimiter).map((f) => f.trim());
      // A first line with a letter where the number should be is a header.
      const probe = fields[index ?? 0] ?? '';
      if (/[A-Za-z]/.test(probe) || typeof column === 'string') {
        const names = fields.map((f) => f.toLowerCase());
        if (typeof column === 'string') index = names.indexOf(column.toLowerCase());
        else
          index ??= Math.max(
            0,
            names.findIndex((n) => HEADER_NAMES.includes(n)),
          );
        if (index < 0) throw new PushError('SOURCE_INVALID', `${path}: no column named '${column}' in the header`);
        continue;
      }
    }
    yield splitCsv(line, delimiter)[index ?? 0] ?? '';
  }
}

async function* ndjsonNumbers(lines: AsyncIterable<string>, field: string): AsyncGenerator<string> {
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: passed on as it is, so it is reported as an invalid number rather than lost.
      yield text.slice(0, 64);
      continue;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      value = (value as Record<string, unknown>)[field];
    yield typeof value === 'string' ? value : typeof value === 'number' ? String(value) : text.slice(0, 64);
  }
}

/**
 * Streams the numbers of a CSV or NDJSON file line by line (a file of millions
 * never becomes one string). Each number comes as written; the campaign
 * normalizes, validates and de-duplicates. NDJSON lines are a string, a number,
 * or an object with the number in `column` (default `msisdn`).
 *
 * @throws PushError `SOURCE_INVALID` (when iterated) if the file cannot be read or the named column is missing.
 * @example
 * await sendCampaign({ client, numbers: readMsisdnFile('numbers.csv'), subId, message });
 */
export function readMsisdnFile(path: string, { format, column }: MsisdnFileOptions = {}): AsyncIterable<string> {
  const kind = format ?? (['.ndjson', '.jsonl'].includes(extname(path).toLowerCase()) ? 'ndjson' : 'csv');
  return {
    async *[Symbol.asyncIterator]() {
      const stream = createReadStream(path, { encoding: 'utf8' });
      const opened = new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      try {
        await opened;
      } catch (error) {
        throw new PushError(
          'SOURCE_INVALID',
          `${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          {},
          { cause: error },
        );
      }
      const lines = createInterface({ input: stream, crlfDelay: Infinity });
      try {
        if (kind === 'ndjson') yield* ndjsonNumbers(lines, typeof column === 'string' ? column : 'msisdn');
        else yield* csvNumbers(lines, column, path);
      } finally {
        lines.close();
        stream.destroy();
      }
    },
  };
}

/**
 * The numbers of a CSV or NDJSON text already in memory (an upload), read as {@link readMsisdnFile} reads a file;
 * `format` defaults to csv.
 * @throws PushError `SOURCE_INVALID` (when iterated) if the named column is missing.
 */
export function readMsisdnText(
  text: string,
  { format = 'csv', column }: MsisdnFileOptions = {},
): AsyncIterable<string> {
  return {
    async *[Symbol.asyncIterator]() {
      async function* lines(): AsyncGenerator<string> {
        yield* text.split(/\r?\n/);
      }
      if (format === 'ndjson') yield* ndjsonNumbers(lines(), typeof column === 'string' ? column : 'msisdn');
      else yield* csvNumbers(lines(), column, 'the uploaded text');
    },
  };
}

/** Iterates any {@link MsisdnSource} as an async iterable. */
export async function* iterateSource(source: MsisdnSource): AsyncGenerator<string> {
  if (Symbol.asyncIterator in source) yield* source as AsyncIterable<string>;
  else yield* source as Iterable<string>;
}
