import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const root = join(import.meta.dirname, '..', '..');

/** One entry point of the package: its subpath (`.`, `./pay`...) and its source file. */
export interface EntryPoint {
  subpath: string;
  source: string;
}

/** The package's entry points from package.json `exports`, each mapped from its dist file back to its source. */
export function entryPoints(): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types: string; default: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) =>
    typeof target === 'string'
      ? []
      : [
          {
            subpath,
            source: target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'),
          },
        ],
  );
}

/** An exported name and what it is: a runtime value (function, class, constant) or a type only. */
export interface ExportedName {
  name: string;
  kind: 'function' | 'class' | 'const' | 'type' | 'interface';
}

/** What TypeScript sees each entry point export, sorted by name. */
export function exportedNames(entries: readonly EntryPoint[]): Map<string, ExportedName[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText));
      },
    },
  )!;
  const program = ts.createProgram(
    entries.map((e) => join(root, e.source)),
    config.options,
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, ExportedName[]>();
  for (const entry of entries) {
    const file = program.getSourceFile(join(root, entry.source))!;
    const names = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((symbol) => {
      const typeOnly = symbol.declarations?.some(
        (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
      );
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return { name: symbol.name, kind: kindOf(target.flags, typeOnly === true) };
    });
    result.set(
      entry.subpath,
      names.sort((a, b) => a.name.localeCompare(b.name)),
    );
  }
  return result;
}

function kindOf(flags: ts.SymbolFlags, typeOnly: boolean): ExportedName['kind'] {
  if (!typeOnly && flags & ts.SymbolFlags.Class) return 'class';
  if (!typeOnly && flags & ts.SymbolFlags.Function) return 'function';
  if (!typeOnly && flags & ts.SymbolFlags.Variable) return 'const';
  return flags & ts.SymbolFlags.Interface ? 'interface' : 'type';
}

/** Whether a name exists at run time. */
export function isRuntime(name: ExportedName): boolean {
  return name.kind === 'function' || name.kind === 'class' || name.kind === 'const';
}

/** The API report: per entry point, its runtime names and its types, as committed in api/report.md. */
export function report(names: Map<string, ExportedName[]>): string {
  const total = [...names.values()].flat().filter(isRuntime).length;
  const lines = [
    '# API report',
    '',
    'Every name the package exports, per entry point (package.json `exports`). Generated: `UPDATE_API_REPORT=1 npx',
    'vitest run test/api/surface.test.ts` rewrites it; the test fails while it differs, so every change of the public',
    'surface is a deliberate one, seen in review.',
    '',
    `Runtime names: ${total} across ${names.size} entry points.`,
  ];
  for (const [subpath, list] of names) {
    const name = subpath === '.' ? 'wallet-partner-kit' : `wallet-partner-kit/${subpath.slice(2)}`;
    const runtime = list.filter(isRuntime);
    lines.push('', `## ${name}`, '', `${runtime.length} runtime names.`, '');
    for (const n of list) lines.push(`- \`${n.name}\` ${n.kind}`);
  }
  return `${lines.join('\n')}\n`;
}
