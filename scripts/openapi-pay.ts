/**
 * Writes the Pay API's OpenAPI 3.1 document (with the sandbox's simulator and
 * test controls) to openapi/pay.json: `npx tsx scripts/openapi-pay.ts [--check]`.
 * With --check it writes nothing and exits 1 when the file is out of date.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { payOpenApiDocument } from '../src/contracts/pay/openapi.js';

const target = join(import.meta.dirname, '..', 'openapi', 'pay.json');
const text = `${JSON.stringify(payOpenApiDocument(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(target, 'utf8'); } catch { /* missing counts as out of date */ }
  if (current !== text) {
    console.error(`${target} is out of date: run npx tsx scripts/openapi-pay.ts`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
