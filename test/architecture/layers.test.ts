import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * The layers of docs/architecture.md ("Layers"), bottom (0) to top. A file may import its
 * own layer and the ones below. The first matching prefix decides. The core
 * (assembly/) is compiled apart and imports nothing of these.
 */
const LAYERS: ReadonlyArray<readonly [prefix: string, layer: number, name: string]> = [
  // Build tools and the package's public entry points re-export or read every layer.
  ['src/contracts/openapi-build.ts', 9, 'build script'],
  ['src/db/build-pglite-base.ts', 9, 'build script'],
  ['src/errors.ts', 0, 'foundation'],
  ['src/version.ts', 0, 'foundation'],
  ['src/demo.ts', 0, 'foundation'],
  ['src/contracts/', 0, 'foundation'],
  ['src/stores/', 0, 'foundation'],
  ['src/guard/', 0, 'foundation'],
  ['src/log/', 0, 'foundation'],
  ['src/net/', 0, 'foundation'],
  ['src/telemetry/', 0, 'foundation'],
  ['adapters/node/', 1, 'embedding'],
  ['adapters/native/', 1, 'embedding'],
  ['src/db/', 1, 'data'],
  ['src/webhooks/', 1, 'data'],
  ['src/loyalty/server/', 3, 'transport'],
  ['src/loyalty/program/', 4, 'composition'],
  ['src/callback/receiver.ts', 3, 'transport'],
  ['src/pay/', 2, 'service'],
  ['src/push/', 2, 'service'],
  ['src/callback/', 2, 'service'],
  ['src/loyalty/', 2, 'service'],
  ['src/cashdesk/', 2, 'service'],
  ['src/api-app/', 3, 'transport'],
  ['adapters/ws/', 3, 'transport'],
  ['adapters/http/', 3, 'transport'],
  ['src/server/', 4, 'composition'],
  ['src/sandbox/', 4, 'composition'],
  ['src/cli/', 5, 'cli'],
];

function layerOf(file: string): readonly [number, string] | undefined {
  const hit = LAYERS.find(([prefix]) => file === prefix || file.startsWith(prefix));
  return hit === undefined ? undefined : [hit[1], hit[2]];
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.parentPath.includes('node_modules') && !e.parentPath.includes('/build'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Relative imports of a file (static, dynamic and `export ... from`), as repository paths of .ts files. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    found.push(relative(root, resolve(root, dirname(file), match[1]!.replace(/\.js$/, '.ts'))));
  }
  return found;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> };
/** The package's subpath entry points (package.json `exports`): they re-export a module's whole surface, server included. */
const entryPoints = new Set(Object.values(pkg.exports).flatMap((e) => typeof e === 'object' && e.types ? [e.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')] : []));

const files = [...sources('src'), ...sources('adapters')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('layering (docs/architecture.md)', () => {
  it('places every source file in a layer', () => {
    expect(files.filter((f) => layerOf(f) === undefined && !entryPoints.has(f))).toEqual([]);
  });

  it('never imports from a layer above', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      if (entryPoints.has(file)) continue;
      const [own, ownName] = layerOf(file)!;
      for (const target of imports) {
        const theirs = layerOf(target);
        if (theirs !== undefined && theirs[0] > own) upward.push(`${file} (${ownName}) -> ${target} (${theirs[1]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
        else if (state.get(next) === undefined) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
