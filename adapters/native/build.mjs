// Builds the native addon (adapters/native/build/Release/wallet_core.node) with
// node-gyp, offline, against the headers of the node that runs this script.
// Never fails the install: on any problem it prints one line and exits 0, and
// the kit uses its wasm core.
//
// Environment: WALLET_PARTNER_KIT_NATIVE=0 skips the build;
// WALLET_PARTNER_KIT_NODEDIR=<dir> overrides the node headers' root (the
// directory holding include/node/node.h).

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const addon = join(here, 'build', 'Release', 'wallet_core.node');
const log = join(here, 'build', 'build.log');
const BUILD_TIMEOUT_MS = 10 * 60_000;

// In a project that installed the kit, npm rebuild re-runs this script; in the kit's checkout, npm run build:native.
const installed = here.split(sep).includes('node_modules');
const retry = installed ? 'npm rebuild wallet-partner-kit' : 'npm run build:native';

/**
 * The one line about the addon. npm 7+ runs a dependency's install script in the background and shows its
 * output only when it fails (or with --foreground-scripts), so on a terminal the line goes to it as well.
 */
function say(line) {
  console.log(line);
  if (!installed || process.stdout.isTTY || process.env.npm_config_foreground_scripts === 'true') return;
  try {
    const tty = openSync('/dev/tty', 'w');
    writeSync(tty, `${line}\n`);
    closeSync(tty);
  } catch {
    // no terminal (CI, a container): npm's log keeps the line
  }
}

function notBuilt(reason) {
  say(`wallet-partner-kit: native addon not built (${reason}); the wasm core will be used (\`${retry}\` tries again)`);
  process.exit(0);
}

/** node-gyp's CLI: npm's own when npm runs us, else the one bundled with this node's npm. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
    '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    '/usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  ];
  return candidates.find((path) => path && existsSync(path));
}

/** The root of this node's headers (so node-gyp never downloads them). */
function nodeDir() {
  const override = process.env.WALLET_PARTNER_KIT_NODEDIR;
  if (override) return override;
  const beside = resolve(dirname(process.execPath), '..');
  for (const dir of [beside, '/usr', '/usr/local']) {
    if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  }
  return undefined;
}

/** The most telling line of a failed build's output (a compiler error, gyp's complaint, make's), kept short. */
function firstError(output) {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const patterns = [
    /\b(fatal )?error:/,
    /^gyp: /,
    /^make: \*\*\*/,
    /^gyp ERR! (?!stack|System|command|cwd|node -v|node-gyp -v|not ok)/,
    /error/i,
  ];
  const line =
    patterns.map((pattern) => lines.find((l) => pattern.test(l))).find(Boolean) ?? lines.at(-1) ?? 'no output';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function saveLog(output) {
  try {
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, output);
  } catch {
    // the log is a convenience
  }
}

try {
  if (process.env.WALLET_PARTNER_KIT_NATIVE === '0') notBuilt('WALLET_PARTNER_KIT_NATIVE=0');
  const gyp = nodeGyp();
  if (gyp === undefined) notBuilt('node-gyp not found');
  const dir = nodeDir();
  if (dir === undefined)
    notBuilt("this node's headers (include/node/node.h) not found; set WALLET_PARTNER_KIT_NODEDIR");
  if (!existsSync(join(dir, 'include', 'node', 'node.h'))) notBuilt(`no include/node/node.h under ${dir}`);

  const build = spawnSync(process.execPath, [gyp, 'rebuild', `--directory=${here}`, `--nodedir=${dir}`, '--jobs=max'], {
    cwd: here,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_nodedir: dir },
  });
  const output = `${build.stdout ?? ''}\n${build.stderr ?? ''}`;
  saveLog(output);
  if (build.error) notBuilt(`node-gyp could not run: ${build.error.message}`);
  if (build.status !== 0) notBuilt(`node-gyp failed: ${firstError(output)}; log in ${log}`);
  if (!existsSync(addon)) notBuilt('node-gyp produced no wallet_core.node');

  // Load it where it will run, in a fresh process: unresolved OpenSSL symbols or a failing self-test show here.
  const check = spawnSync(
    process.execPath,
    ['-e', `process.exit(require(${JSON.stringify(addon)}).selfTest() === true ? 0 : 3)`],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  if (check.status !== 0) {
    rmSync(addon, { force: true });
    notBuilt(
      check.status === 3
        ? 'the addon failed its self-test'
        : `the addon does not load: ${firstError(check.stderr ?? '')}`,
    );
  }
  say('wallet-partner-kit: native addon built (adapters/native/build/Release/wallet_core.node)');
} catch (error) {
  notBuilt(error instanceof Error ? error.message : String(error));
}
