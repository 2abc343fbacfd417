import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryPoints, exportedNames, isRuntime, report, root } from './surface.js';

/** The bound on the public surface: runtime names across every entry point. */
const MAX_RUNTIME_NAMES = 90;

const entries = entryPoints();
const names = exportedNames(entries);

describe('public API surface', () => {
  it('matches the committed report (api/report.md) name for name', () => {
    const file = join(root, 'api', 'report.md');
    const current = report(names);
    if (process.env.UPDATE_API_REPORT === '1') writeFileSync(file, current);
    expect(current).toBe(readFileSync(file, 'utf8'));
  });

  it(`exports at most ${MAX_RUNTIME_NAMES} runtime names across its entry points`, () => {
    const total = [...names.values()].flat().filter(isRuntime).length;
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(MAX_RUNTIME_NAMES);
  });

  it('exports at run time exactly the names the report calls runtime names', async () => {
    for (const { subpath, source } of entries) {
      const module = (await import(pathToFileURL(join(root, source)).href)) as Record<string, unknown>;
      const expected = names
        .get(subpath)!
        .filter(isRuntime)
        .map((n) => n.name);
      expect({ subpath, names: Object.keys(module).sort() }).toEqual({ subpath, names: expected.sort() });
    }
  });

  it('has entry points of explicit named exports only (no export *)', () => {
    const star = entries.filter(({ source }) => /^\s*export \*/m.test(readFileSync(join(root, source), 'utf8')));
    expect(star).toEqual([]);
  });
});
