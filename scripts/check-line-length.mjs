#!/usr/bin/env node
// Holds the house rule "lines within 120 columns" for every git-tracked source file. Biome's formatter wraps code
// at 120 but cannot wrap a comment or a string literal, and it does not see assembly/ (AssemblyScript's decorators do
// not parse as TypeScript), the C++ addon, the Java and Python tills or the shell scripts: this check covers them all.
// Columns are characters (code points), not bytes. Prints `path:line: N columns` per offender and exits 1.
// Usage: node scripts/check-line-length.mjs [--max N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const maxIndex = process.argv.indexOf('--max');
const MAX_COLUMNS = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : 120;
const SOURCE = /\.(ts|tsx|mts|cts|mjs|js|cjs|cc|h|java|py|sh)$/;
// Generated or vendored output, not written by hand (JSON and Markdown are out by extension).
const GENERATED = [/^openapi\//, /^bench\/out\//, /^dist\//, /^build\//, /^adapters\/native\/build\//];
const SHEBANG = /^#!.*\b(sh|bash|node|python3?)\b/;

const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter((path) => path !== '' && !GENERATED.some((pattern) => pattern.test(path)));

let offenders = 0;
for (const path of tracked) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // deleted in the work tree but still in the index
  }
  // Extension-less executables (.ci/run, the example tills' run scripts) count by their shebang.
  if (!SOURCE.test(path) && !(!/\.[^/]*$/.test(path) && SHEBANG.test(text))) continue;
  text.split(/\r?\n/).forEach((line, index) => {
    const columns = [...line].length;
    if (columns > MAX_COLUMNS) {
      console.log(`${path}:${index + 1}: ${columns} columns`);
      offenders++;
    }
  });
}
if (offenders > 0) {
  console.log(`${offenders} line(s) over ${MAX_COLUMNS} columns`);
  process.exit(1);
}
