import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cashDeskOpenApiDocument } from '../../../adapters/cashdesk-http/index.js';
import { loyaltyOpenApiDocument } from '../../../src/routes/loyalty-openapi.js';
import { pushOpenApiDocument } from '../../../src/routes/push-openapi.js';
import { sandboxPayOpenApiDocument } from '../../../src/sandbox/pay/openapi.js';

const root = join(import.meta.dirname, '..', '..', '..');
const documents = {
  pay: sandboxPayOpenApiDocument,
  push: pushOpenApiDocument,
  loyalty: loyaltyOpenApiDocument,
  cashdesk: cashDeskOpenApiDocument,
};

describe('openapi/ documents', () => {
  it.each(Object.entries(documents))(
    'holds the %s document as the code builds it (npm run build:openapi)',
    (name, build) => {
      expect(JSON.parse(readFileSync(join(root, 'openapi', `${name}.json`), 'utf8'))).toEqual(build());
    },
  );

  it('passes redocly lint with its recommended rules, errors and warnings alike', () => {
    const bin = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const files = Object.keys(documents).map((name) => join('openapi', `${name}.json`));
    const result = spawnSync(process.execPath, [bin, 'lint', '--format=json', ...files], {
      cwd: root,
      encoding: 'utf8',
    });
    // One JSON report per file, written one after the other.
    const reports = JSON.parse(`[${result.stdout.trim().replace(/\}\s*\{(?=\s*"totals")/g, '},{')}]`) as Array<{
      totals: Record<string, number>;
      problems: Array<{ ruleId: string; message: string }>;
    }>;
    expect(reports).toHaveLength(files.length);
    for (const report of reports) {
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }
    expect(result.status).toBe(0);
  });

  it('declares a security requirement (possibly none, said explicitly) on every operation and webhook', () => {
    for (const build of Object.values(documents)) {
      const doc = build() as {
        paths: Record<string, Record<string, { security?: unknown }>>;
        webhooks?: Record<string, Record<string, { security?: unknown }>>;
      };
      for (const group of [doc.paths, doc.webhooks ?? {}]) {
        for (const [path, operations] of Object.entries(group)) {
          for (const [method, operation] of Object.entries(operations))
            expect(operation.security, `${method} ${path}`).toBeDefined();
        }
      }
    }
  });
});
