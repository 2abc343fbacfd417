/**
 * Real services for the tests that need them, chosen by environment:
 * REDIS_URL and DATABASE_URL (.ci/run sets both). Without them those tests
 * are skipped, and this says so once, in one line each.
 */
export const REDIS_URL = process.env.REDIS_URL;
export const DATABASE_URL = process.env.DATABASE_URL;

const said = new Set<string>();

/** True when `url` is set; otherwise prints one line naming what is skipped. */
export function haveService(name: 'REDIS_URL' | 'DATABASE_URL', url: string | undefined, what: string): boolean {
  if (url) return true;
  const line = `${name} is not set: skipping ${what} (set ${name}, as .ci/run does, to run them)`;
  if (!said.has(line)) {
    said.add(line);
    console.warn(line);
  }
  return false;
}
