import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMsisdnFile } from '../../../src/entries/push.js';
import { isValidMsisdn, normalizeMsisdn, readMsisdnText } from '../../../src/push/sources.js';

const dir = mkdtempSync(join(tmpdir(), 'wpk-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('normalizeMsisdn and isValidMsisdn', () => {
  it('reduces the usual spellings to digits with the country code first', () => {
    expect(normalizeMsisdn(' +7 (999) 123-45-67 ')).toBe('79991234567');
    expect(normalizeMsisdn('7.999.123.45.67')).toBe('79991234567');
    expect(isValidMsisdn('79991234567')).toBe(true);
  });

  it('leaves what is not a number invalid', () => {
    for (const bad of ['', '8999', '0999123456789', '7999123456a', '1234567890123456'])
      expect(isValidMsisdn(normalizeMsisdn(bad))).toBe(false);
  });
});

describe('readMsisdnFile', () => {
  it('reads a CSV column by its header, with quotes, CRLF, a BOM and blank lines', async () => {
    const path = file(
      'header.csv',
      '\uFEFFname,msisdn,city\r\n"Doe, John",79990000001,Moscow\r\n\r\nAnn,"+7 999 000-00-02",Kazan\r\n',
    );
    expect(await collect(readMsisdnFile(path))).toEqual(['79990000001', '+7 999 000-00-02']);
  });

  it('reads the first column of a CSV without a header, and semicolon-separated files', async () => {
    expect(await collect(readMsisdnFile(file('plain.csv', '79990000001\n79990000002\nnot-a-number\n')))).toEqual([
      '79990000001',
      '79990000002',
      'not-a-number',
    ]);
    expect(await collect(readMsisdnFile(file('semi.csv', 'phone;name\n79990000003;A\n')))).toEqual(['79990000003']);
  });

  it('reads a named or numbered column and says when the named one is missing', async () => {
    const path = file('cols.csv', 'id,tel\n1,79990000004\n');
    expect(await collect(readMsisdnFile(path, { column: 'tel' }))).toEqual(['79990000004']);
    expect(await collect(readMsisdnFile(file('cols2.csv', '1,79990000005\n'), { column: 1 }))).toEqual(['79990000005']);
    await expect(collect(readMsisdnFile(path, { column: 'msisdn' }))).rejects.toMatchObject({ code: 'SOURCE_INVALID' });
  });

  it('reads NDJSON strings, numbers and objects, passing unreadable lines on to be rejected', async () => {
    const path = file(
      'n.ndjson',
      '"79990000006"\n79990000007\n{"msisdn":"79990000008","name":"x"}\n{broken\n{"other":1}\n',
    );
    expect(await collect(readMsisdnFile(path))).toEqual([
      '79990000006',
      '79990000007',
      '79990000008',
      '{broken',
      '{"other":1}',
    ]);
    expect(await collect(readMsisdnFile(file('n.jsonl', '{"tel":"79990000009"}\n'), { column: 'tel' }))).toEqual([
      '79990000009',
    ]);
  });

  it('says SOURCE_INVALID for a file that cannot be read', async () => {
    await expect(collect(readMsisdnFile(join(dir, 'missing.csv')))).rejects.toMatchObject({ code: 'SOURCE_INVALID' });
  });

  it('streams a large file line by line without reading it whole', async () => {
    const path = join(dir, 'large.csv');
    const out = createWriteStream(path);
    for (let i = 0; i < 300_000; i++) out.write(`7900${String(i).padStart(7, '0')}\n`);
    await new Promise<void>((resolve) => out.end(resolve));
    let count = 0;
    let last = '';
    const heapBefore = process.memoryUsage().heapUsed;
    for await (const msisdn of readMsisdnFile(path)) {
      count++;
      last = msisdn;
    }
    expect(count).toBe(300_000);
    expect(last).toBe('79000299999');
    // The file is 3.6 MB; reading it must not have held it (and its split copy) at once.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('readMsisdnText', () => {
  const all = async (source: AsyncIterable<string>) => {
    const out: string[] = [];
    for await (const n of source) out.push(n);
    return out;
  };

  it('reads an uploaded CSV as readMsisdnFile reads a file: header column, BOM, CRLF, blank lines', async () => {
    expect(await all(readMsisdnText('\uFEFFname;phone\r\nAnna;+7 999 123-45-67\r\n\r\nBoris;79990000002\r\n'))).toEqual(
      ['+7 999 123-45-67', '79990000002'],
    );
  });

  it('reads NDJSON lines, and names a missing CSV column as SOURCE_INVALID', async () => {
    expect(await all(readMsisdnText('{"msisdn":"79990000001"}\n"79990000002"\n', { format: 'ndjson' }))).toEqual([
      '79990000001',
      '79990000002',
    ]);
    await expect(all(readMsisdnText('name,email\nA,a@b', { column: 'phone' }))).rejects.toMatchObject({
      code: 'SOURCE_INVALID',
    });
  });
});
