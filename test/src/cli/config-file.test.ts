import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from '../../../src/cli/config-file.js';

describe('readConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpk-config-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the line and column where a file stops being JSON', () => {
    const file = join(dir, 'trailing-comma.json');
    writeFileSync(file, '{\n  "server": {\n    "port": 8080,\n  }\n}\n');
    expect(() => readConfigFile(file)).toThrow(`--config: ${file} is not valid JSON (line 4, column 3: `);
  });

  it('names the end of a file cut short', () => {
    const file = join(dir, 'cut.json');
    writeFileSync(file, '{\n  "server": {');
    expect(() => readConfigFile(file)).toThrow(`--config: ${file} is not valid JSON (line 2, column 14: `);
  });
});
