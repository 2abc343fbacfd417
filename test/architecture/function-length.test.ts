import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** The house's cap: a function fits on a screen. A table or a route list written as data is no function. */
const MAX_LINES = 80;

/** The TypeScript files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function with a body in `file` (declarations, expressions, arrows, methods, accessors, constructors). */
function functionsOf(file: string): { name: string; line: number; lines: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function's own name, else the name it is assigned to or passed as, else `<anonymous>`. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const own = (node as { name?: ts.Node }).name;
  if (own !== undefined) return own.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '<anonymous>';
}

describe('function length', () => {
  const long = ['src', 'adapters']
    .flatMap((dir) => sourceFiles(join(root, dir)))
    .flatMap((file) =>
      functionsOf(file)
        .filter((f) => f.lines > MAX_LINES)
        .map((f) => ({ at: `${relative(root, file)}:${f.line}`, ...f })),
    );

  it(`keeps every function in src/ and adapters/ within ${MAX_LINES} lines`, () => {
    expect(long.map((f) => `${f.at} ${f.name}: ${f.lines} lines`)).toEqual([]);
  });
});
