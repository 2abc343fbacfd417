/**
 * Writes the OpenAPI 3.1 documents of the kit's HTTP APIs to openapi/:
 * `npm run build:openapi` (Pay with the sandbox's simulator and controls, Push
 * with the Callback API as a webhook, Loyalty, the cash desk server), and the
 * AsyncAPI 3.0 document of the cash desk bridge beside them (asyncapi.json).
 * `-- --check` writes nothing, exits 1 when a file is out of date, and then
 * lints every OpenAPI document with `redocly lint` (its recommended rules; the
 * ignore file .redocly.lint-ignore.yaml says why for each entry) and parses the
 * AsyncAPI one with `@asyncapi/parser` (no error, no warning).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cashDeskOpenApiDocument } from '../../adapters/cashdesk-http/openapi.js';
import { cashDeskBridgeAsyncApiDocument } from '../../adapters/ws/asyncapi.js';
import { loyaltyOpenApiDocument } from '../routes/loyalty-openapi.js';
import { sandboxPayOpenApiDocument } from '../sandbox/pay/openapi.js';
import { pushOpenApiDocument } from '../routes/push-openapi.js';

const root = join(import.meta.dirname, '..', '..');
const documents: Record<string, () => object> = {
  pay: sandboxPayOpenApiDocument,
  push: pushOpenApiDocument,
  loyalty: loyaltyOpenApiDocument,
  cashdesk: cashDeskOpenApiDocument,
};
/** Written beside the OpenAPI documents, checked by the AsyncAPI parser rather than redocly. */
const ASYNCAPI = 'asyncapi';
const files = Object.keys(documents).map((name) => join('openapi', `${name}.json`));
const written: Record<string, () => object> = { ...documents, [ASYNCAPI]: cashDeskBridgeAsyncApiDocument };
const check = process.argv.includes('--check');

let stale = false;
for (const [name, build] of Object.entries(written)) {
  const target = join(root, 'openapi', `${name}.json`);
  const text = `${JSON.stringify(build(), null, 2)}\n`;
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      /* missing counts as out of date */
    }
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

/** Runs `redocly lint` on the written documents; prints its findings only when there are some. */
function lint(): boolean {
  const bin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const result = spawnSync(process.execPath, [bin, 'lint', '--format=stylish', ...files], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status === 0) return true;
  // Redocly's own banners (e.g. its Node 20 notice) are noise on success, but its findings are the point on failure.
  process.stderr.write(result.stdout + result.stderr);
  return false;
}

/** Parses openapi/asyncapi.json with `@asyncapi/parser`; prints its errors and warnings, true when there are none. */
async function parseAsyncApi(): Promise<boolean> {
  const { Parser } = await import('@asyncapi/parser');
  const { diagnostics } = await new Parser().parse(readFileSync(join(root, 'openapi', `${ASYNCAPI}.json`), 'utf8'));
  // Severity 0 is an error, 1 a warning; information and hints (such as "a newer AsyncAPI exists") are not findings.
  const findings = diagnostics.filter((d) => d.severity <= 1);
  for (const d of findings) console.error(`openapi/${ASYNCAPI}.json ${d.path.join('.')}: ${d.code}: ${d.message}`);
  return findings.length === 0;
}

if (stale) process.exitCode = 1;
else if (check) {
  const linted = lint();
  const parsed = await parseAsyncApi();
  if (linted && parsed) {
    const names = files.map((f) => f.slice('openapi/'.length)).join(', ');
    console.log(
      `openapi/: ${names} are up to date and pass redocly lint (recommended rules); ` +
        `${ASYNCAPI}.json is up to date and passes the AsyncAPI parser`,
    );
  } else process.exitCode = 1;
}
