import { createRequire } from 'node:module';

// package.json sits two levels up from both src/ and dist/src/.
const pkg = (() => {
  const require = createRequire(import.meta.url);
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const found = require(path) as { name?: string; version: string };
      if (found.name === 'wallet-partner-kit') return found;
    } catch {
      // try the other layout
    }
  }
  return { version: '0.0.0' };
})();

/** The package version. */
export const VERSION: string = pkg.version;
