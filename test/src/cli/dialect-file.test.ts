import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDialect } from '../../../src/cli/dialect-file.js';
import { ConfigError } from '../../../src/errors.js';

const root = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'wpk-dialect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function issuesOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

describe('readDialect', () => {
  it("reads the preset 'foreign' from the file shipped in the package", () => {
    const file = JSON.parse(readFileSync(join(root, 'examples/dialects/sandbox-foreign.json'), 'utf8'));
    expect(readDialect('foreign', undefined)).toEqual(file.pay.dialect);
  });

  it('reads a dialect alone from a file, over WPK_PAY_DIALECT', () => {
    const path = join(dir, 'alone.json');
    writeFileSync(path, JSON.stringify({ statuses: { OK: 'successful' } }));
    expect(readDialect(path, '{"statuses":{}}')).toEqual({ statuses: { OK: 'successful' } });
  });

  it('takes WPK_PAY_DIALECT when no option is given, and nothing when neither is', () => {
    expect(readDialect(undefined, '{"pay":{"dialect":{"statuses":{"X":"transit"}}}}')).toEqual({
      statuses: { X: 'transit' },
    });
    expect(readDialect(undefined, undefined)).toBeUndefined();
  });

  it('names the option and the presets when the file does not exist', () => {
    expect(issuesOf(() => readDialect(join(dir, 'missing.json'), undefined))).toEqual([
      `--dialect ${join(dir, 'missing.json')}: no such file; give a JSON file or a preset (foreign)`,
    ]);
  });

  it('names the option when it is given a folder', () => {
    expect(issuesOf(() => readDialect(dir, undefined))[0]).toBe(
      `--dialect ${dir}: a folder, not a file; give a JSON file or a preset (foreign)`,
    );
  });

  it('names the option when the file is not JSON', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{ not json');
    expect(issuesOf(() => readDialect(path, undefined))).toEqual([`--dialect ${path}: must be JSON`]);
  });
});
