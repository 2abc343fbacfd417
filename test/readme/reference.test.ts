import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/server/config-environment.js';
import { serveConfigSchema } from '../../src/server/config.js';
import { schemaKeys } from './schema-keys.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const NONE = '—';

/** The README's section under `## heading`, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md: no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The rows of the first table in `text`, header and separator left out, each as its cells without backticks. */
function tableRows(text: string): string[][] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('`', '')),
  );
}

/** The names `WPK_*` that the kit's sources read: every one must be in the table. */
function variablesInSources(): Set<string> {
  const names = new Set<string>();
  for (const dir of ['src', 'adapters']) {
    for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      for (const [name] of readFileSync(join(root, dir, file), 'utf8').matchAll(/\bWPK_[A-Z0-9_]+\b/g)) names.add(name);
    }
  }
  return names;
}

const missing = (from: Iterable<string>, inside: Set<string>) => [...from].filter((x) => !inside.has(x)).sort();

describe('README reference', () => {
  it('opens with a contents list that links every section', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings[0]).toBe('Contents');
    const listed = [...section('Contents').matchAll(/^- \[(.+)\]\(#[^)]+\)$/gm)].map((m) => m[1]!);
    expect(listed).toEqual(headings.slice(1));
  });

  it('lists every key of the serve configuration schema in its table, and no key the schema lacks', () => {
    const rows = tableRows(section('`serve` configuration: the file and the variables'));
    const documented = new Set(rows.map(([key]) => key!).filter((key) => key !== NONE));
    const schema = new Set(schemaKeys(serveConfigSchema));
    expect(missing(schema, documented), 'in src/server/config.ts, missing from the README table').toEqual([]);
    expect(missing(documented, schema), 'in the README table, missing from src/server/config.ts').toEqual([]);
  });

  it('gives each variable of config-environment.ts in the row of the key it sets', () => {
    const rows = tableRows(section('`serve` configuration: the file and the variables'));
    // A variable that sets a whole section (WPK_TILLS, WPK_PAY_DIALECT) stands in the rows of its fields.
    const sets = (key: string, path: string) =>
      key === path || key.startsWith(`${path}.`) || key.startsWith(`${path}[].`);
    const misplaced = Object.entries(ENVIRONMENT)
      .filter(([name, { path }]) => !rows.some(([key, variable]) => variable === name && sets(key!, path.join('.'))))
      .map(([name, { path }]) => `${name} (${path.join('.')})`);
    expect(misplaced, 'variables of src/server/config-environment.ts not in the README table at their key').toEqual([]);
  });

  it('lists every WPK_* variable the sources read', () => {
    const rows = tableRows(section('`serve` configuration: the file and the variables'));
    const documented = new Set(rows.map(([, variable]) => variable!));
    expect(
      missing(variablesInSources(), documented),
      'read in src/ or adapters/, missing from the README table',
    ).toEqual([]);
  });

  it("lists exactly package.json's exports as entry points", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const exported = Object.keys(pkg.exports)
      .filter((entry) => entry !== './package.json')
      .map((entry) => (entry === '.' ? 'wallet-partner-kit' : `wallet-partner-kit/${entry.slice(2)}`));
    const listed = tableRows(section('Entry points')).map(([entry]) => entry!);
    expect(missing(exported, new Set(listed)), "in package.json's exports, missing from the README").toEqual([]);
    expect(missing(listed, new Set(exported)), "in the README, missing from package.json's exports").toEqual([]);
    // Nowhere else does the README name an entry point the package does not export.
    const named = new Set([...readme.matchAll(/wallet-partner-kit\/([a-z-]+)(?=['`])/g)].map((m) => m[0]));
    expect(missing(named, new Set(exported))).toEqual([]);
  });
});
