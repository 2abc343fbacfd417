import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * The layers of docs/architecture.md ("Layers"), bottom (0) to top, one entry per folder: `assembly`, each folder
 * directly under `adapters/` and `src/` (its subfolders go with it), and `src` itself for the files directly in it.
 * A file may import its own layer and the ones below.
 */
const LAYERS: Readonly<Record<string, readonly [layer: number, name: string]>> = {
  assembly: [0, 'core'],
  src: [1, 'foundation'],
  'src/contracts': [1, 'foundation'],
  'src/errors': [1, 'foundation'],
  'src/stores': [1, 'foundation'],
  'src/guard': [1, 'foundation'],
  'src/log': [1, 'foundation'],
  'src/net': [1, 'foundation'],
  'src/time': [1, 'foundation'],
  'src/ids': [1, 'foundation'],
  'src/feed': [1, 'foundation'],
  'src/metrics': [1, 'foundation'],
  'src/telemetry': [1, 'foundation'],
  'adapters/core': [2, 'embedding'],
  'adapters/node': [2, 'embedding'],
  'adapters/native': [2, 'embedding'],
  'src/db': [2, 'data'],
  'src/webhooks': [2, 'data'],
  'src/pay': [3, 'service'],
  'src/push': [3, 'service'],
  'src/callback': [3, 'service'],
  'src/loyalty': [3, 'service'],
  'src/cashdesk': [3, 'service'],
  'src/routes': [4, 'transport'],
  'adapters/ws': [4, 'transport'],
  'adapters/http-server': [4, 'transport'],
  'adapters/cashdesk-http': [4, 'transport'],
  'src/loyalty-server': [4, 'transport'],
  'src/callback-receiver': [4, 'transport'],
  'src/server': [5, 'composition'],
  'src/sandbox': [5, 'composition'],
  'src/loyalty-program': [5, 'composition'],
  'src/cli': [6, 'cli'],
  'src/build': [7, 'build'],
  'src/entries': [8, 'entry'],
};

/** The folder of the table a file belongs to: `assembly`, `adapters/<name>`, `src/<name>`, or `src` itself. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'assembly') return 'assembly';
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function sources(dir: string): string[] {
  return (
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
      .map((e) => relative(root, join(e.parentPath, e.name)))
      // The addon's build output (node-gyp) is not source; src/build/ is.
      .filter((file) => !file.split('/').includes('node_modules') && !file.startsWith('adapters/native/build/'))
  );
}

/** Relative imports of a file (static, dynamic and `export ... from`), as repository paths of .ts files. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    // AssemblyScript imports name no extension; TypeScript ones name the .js the compiler emits.
    const target = match[1]!.replace(/\.js$/, '.ts');
    found.push(relative(root, resolve(root, dirname(file), target.endsWith('.ts') ? target : `${target}.ts`)));
  }
  return found;
}

/** The source file of each subpath of package.json `exports`: the `types` it names, mapped back from dist/. */
function entryPointSources(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, { types?: string } | string>;
  };
  return Object.values(pkg.exports).flatMap((e) =>
    typeof e === 'object' && e.types ? [e.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')] : [],
  );
}

const files = [...sources('assembly'), ...sources('src'), ...sources('adapters')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Folder to the folders its files import, each with one file-to-file import as witness. */
function folderGraph(): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    for (const target of imports) {
      const to = folderOf(target);
      if (to === from) continue;
      const edges = folders.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file} -> ${target}`);
      folders.set(from, edges);
    }
  }
  return folders;
}

/** Each cycle met by a depth-first walk of `next`, as the list of its nodes with the first repeated at the end. */
function cyclesOf(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const after of next(node)) {
      if (state.get(after) === 'open') cycles.push([...stack.slice(stack.indexOf(after)), after]);
      else if (state.get(after) === undefined) visit(after);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of nodes) if (!state.has(node)) visit(node);
  return cycles;
}

describe('layering (docs/architecture.md)', () => {
  it('places every folder in a layer', () => {
    expect([...new Set(files.map(folderOf))].filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  it('names only folders in its table', () => {
    const isFolder = (path: string) => existsSync(join(root, path)) && statSync(join(root, path)).isDirectory();
    const notFolders = Object.keys(LAYERS).filter((path) => !isFolder(path));
    expect(notFolders).toEqual([]);
  });

  it('never imports from a layer above', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      const [own, ownName] = LAYERS[folderOf(file)]!;
      for (const target of imports) {
        const theirs = LAYERS[folderOf(target)];
        if (theirs !== undefined && theirs[0] > own) upward.push(`${file} (${ownName}) -> ${target} (${theirs[1]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps every entry point of the package in the entry layer, which nothing else imports', () => {
    const sources = entryPointSources();
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => folderOf(source) !== 'src/entries')).toEqual([]);
    const importers = [...graph]
      .filter(([file]) => folderOf(file) !== 'src/entries')
      .flatMap(([file, imports]) => imports.filter((t) => folderOf(t) === 'src/entries').map((t) => `${file} -> ${t}`));
    expect(importers).toEqual([]);
  });

  it('keeps the core apart: assembly imports nothing outside it', () => {
    const outside = [...graph]
      .filter(([file]) => folderOf(file) === 'assembly')
      .flatMap(([file, imports]) =>
        imports.filter((target) => folderOf(target) !== 'assembly').map((target) => `${file} -> ${target}`),
      );
    expect(outside).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const cycles = cyclesOf(graph.keys(), (file) => (graph.get(file) ?? []).filter((next) => graph.has(next)));
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('has no two folders that import each other, directly or round a longer cycle', () => {
    const folders = folderGraph();
    const cycles = cyclesOf(folders.keys(), (folder) => folders.get(folder)?.keys() ?? []);
    const named = cycles.map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => folders.get(cycle[i]!)!.get(to)!)
        .join(', '),
    );
    expect(named).toEqual([]);
  });
});
