/**
 * Writes the OpenAPI 3.1 documents of the kit's HTTP APIs to openapi/:
 * `npm run build:openapi` (Pay with the sandbox's simulator, Push with the
 * Callback API as a webhook, Loyalty). `-- --check` writes nothing and exits 1
 * when a file is out of date.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loyaltyOpenApiDocument } from './loyalty/openapi.js';
import { sandboxPayOpenApiDocument } from '../sandbox/pay/openapi.js';
import { pushOpenApiDocument } from './push/openapi.js';

const root = join(import.meta.dirname, '..', '..');
const documents: Record<string, () => object> = { pay: sandboxPayOpenApiDocument, push: pushOpenApiDocument, loyalty: loyaltyOpenApiDocument };
let stale = false;
for (const [name, build] of Object.entries(documents)) {
  const target = join(root, 'openapi', `${name}.json`);
  const text = `${JSON.stringify(build(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    let current = '';
    try { current = readFileSync(target, 'utf8'); } catch { /* missing counts as out of date */ }
    if (current !== text) {
      console.error(`${target} is out of date: run npm run build:openapi`);
      stale = true;
    }
  } else {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
if (stale) process.exitCode = 1;
else if (process.argv.includes('--check')) console.log(`openapi/: ${Object.keys(documents).map((name) => `${name}.json`).join(', ')} are up to date`);
