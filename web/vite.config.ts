import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The console's pages: wallet app (served by the sandbox), till and merchant console (served by the
 * cash desk server). Built by `npm run build:web` into dist/web, never committed. Relative asset URLs: each server
 * serves a page under its own prefix and injects a `<base href>` (adapters/http-server/web-pages.ts).
 */
export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // bwip-js carries every symbology's encoder in one module; the page loads it once.
    chunkSizeWarningLimit: 1500,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { wallet: here('wallet.html'), till: here('till.html'), merchant: here('merchant.html') },
    },
  },
});
