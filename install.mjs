// What `npm install` runs (the package's `install` script). In the kit's own checkout (a newcomer's `npm install`,
// CI's `npm ci`) it first builds what the package ships: the wasm core, dist/, the PGlite snapshot and the web pages
// (`npm run build:package`; `npm pack` runs it again through `prepack`). In a project that installed the package
// those come in the tarball, so there it only builds the native addon, which never fails the install and says in one
// line whether it was built. The package has no `prepare`: nothing of the checkout's build runs in a consumer.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';

const root = import.meta.dirname;
// tsconfig.build.json is not in the package's files: only a checkout has it.
const checkout = existsSync(join(root, 'tsconfig.build.json')) && !root.split(sep).includes('node_modules');

if (checkout) {
  const npm = process.env.npm_execpath;
  const build =
    npm && /\.[cm]?js$/.test(npm)
      ? spawnSync(process.execPath, [npm, 'run', 'build:package'], { cwd: root, stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build:package'], {
          cwd: root,
          stdio: 'inherit',
          shell: process.platform === 'win32',
        });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('./adapters/native/build.mjs');
