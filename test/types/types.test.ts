import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPoints } from '../api/surface.js';

const root = join(import.meta.dirname, '..', '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = promisify(execFile);

/** Runs `tsc -p project` (no emit: the project says so); its exit code and diagnostics. */
async function typecheck(project: string): Promise<{ code: number; output: string }> {
  try {
    await run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: '' };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A fenced ```ts block of the README: its text and the README line its first line of code is on. */
interface Example {
  line: number;
  code: string;
}

/** Every ```ts block of `markdown`, in order. */
function tsBlocks(markdown: string): Example[] {
  const blocks: Example[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/**
 * The names the README's examples leave to the reader (the application's own functions and values), declared
 * with the types the examples need: `cacheCardSession` takes a string, so the first example compiles only when
 * checking `resultCode` narrows `cardSession` to one.
 */
const READER_NAMES = `
import type { VerifierConfig } from 'wallet-partner-kit';
declare global {
  function cacheCardSession(cardSession: string): void;
  const checkoutBody: Record<string, unknown>;
  const config: VerifierConfig;
  const scanned: string;
  function markInCrm(messageId: string, type: string): Promise<void>;
  const myCrm: {
    issueCard(requestId: string): Promise<{ cardNumber: string; cardKey: string }>;
    groups(cardNumber: string): Promise<any[]>;
    favourites(cardNumber: string): Promise<any[]>;
    setFavourites(cardNumber: string, favorites: any): Promise<any[]>;
    hasCard(cardNumber: string): Promise<boolean>;
    applyCode(cardNumber: string, code: string): Promise<any>;
    receipt(cardNumber: string, receipt: unknown): Promise<any>;
  };
}
`;

/**
 * A failure bound, not an expectation: a tsc run takes seconds, many times that on a loaded 2-core machine,
 * past the suite's default hook bound on a busy one.
 */
const TSC_TIMEOUT_MS = 240_000;

/** A tsc diagnostic: its first line (`path(line,col): error TSxxxx: ...`) and the indented lines that follow it. */
function diagnostics(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line) && found.length > 0) found[found.length - 1] += `\n${line}`;
    else found.push(line);
  }
  return found;
}

/** The README's ```ts blocks as files, one module each, named by the README line each starts on. */
function writeReadmeExamples(dir: string): string[] {
  const examples = tsBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
  writeFileSync(join(dir, 'reader-names.ts'), READER_NAMES);
  return examples.map(({ line, code }) => {
    const file = `readme-line-${line}.ts`;
    // Each example a module of its own (top-level await, its own names), as in a project of the reader's.
    writeFileSync(join(dir, file), `${code}\nexport {};\n`);
    return file;
  });
}

/**
 * One strict project holding the type fixtures and the README's examples, compiled once. The package's names are
 * mapped to the declarations of its `exports` in dist/ (global setup has just built them), what a reader's compiler
 * sees, so a file importing a subpath the package does not export fails to compile, as for a reader; the sources
 * themselves are type-checked by the build.
 */
function writeProject(dir: string): string {
  const base = relative(dir, join(root, 'test', 'types', 'tsconfig.json'));
  const paths = Object.fromEntries(
    entryPoints().map(({ subpath, source }) => [
      subpath === '.' ? 'wallet-partner-kit' : `wallet-partner-kit/${subpath.slice(2)}`,
      [relative(dir, join(root, 'dist', source.replace(/\.ts$/, '.d.ts')))],
    ]),
  );
  const fixtures = `${relative(dir, join(root, 'test', 'types', 'fixtures'))}/**/*.ts`;
  const project = join(dir, 'tsconfig.json');
  writeFileSync(project, JSON.stringify({ extends: base, compilerOptions: { paths }, include: ['*.ts', fixtures] }));
  return relative(root, project);
}

describe('types', () => {
  // Git-ignored, and one folder per process so parallel runs do not share files.
  const dir = join(root, 'test-output', `readme-examples-${process.pid}`);
  let examples: string[] = [];
  let result: { code: number; found: string[] };
  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    examples = writeReadmeExamples(dir);
    const { code, output } = await typecheck(writeProject(dir));
    result = { code, found: diagnostics(output) };
  }, TSC_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const inExample = (diagnostic: string) => /readme-line-\d+\.ts\(/.test(diagnostic);

  it('compiles the type fixtures under strict: results narrow; barcodeVerify is sync as its config', () => {
    // Everything but the README's examples: the fixtures and the declarations they reach.
    expect(result.found.filter((diagnostic) => !inExample(diagnostic))).toEqual([]);
    // A tsc that failed without a diagnostic (a crash, a bad project) fails here rather than passing unseen.
    expect(result.code === 0 || result.found.length > 0).toBe(true);
  });

  it('compiles every TypeScript example of the README under strict, imports mapped to the declarations', () => {
    // The README holds ten today; a parser finding none would make this test prove nothing.
    expect(examples.length).toBeGreaterThanOrEqual(10);
    // A diagnostic names its example by the README line it starts on (readme-line-98.ts: the block at line 98).
    expect(result.found.filter(inExample)).toEqual([]);
  });
});
