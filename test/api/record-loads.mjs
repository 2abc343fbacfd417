// Child process of root-load.test.ts: imports the module named by argv[2] and prints, as JSON, the npm packages
// it loaded: those resolved through the ES module loader (a resolve hook records them) and those required by
// CommonJS modules (require.cache).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const log = join(tmpdir(), `wpk-loads-${process.pid}.txt`);
writeFileSync(log, '');
register(new URL('./record-loads-hooks.mjs', import.meta.url), { data: { log } });
await import(pathToFileURL(process.argv[2]).href);
const files = [...readFileSync(log, 'utf8').split('\n'), ...Object.keys(createRequire(import.meta.url).cache)];
rmSync(log, { force: true });
const packages = new Set();
for (const file of files) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (match) packages.add(match[1]);
}
process.stdout.write(JSON.stringify([...packages].sort()));
