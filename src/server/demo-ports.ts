/** The demo system's ports: probing them before start, and telling a taken one in one line. */
import { createServer } from 'node:net';
import { KitError } from '../errors.js';

/** A port taken by another process, said in one line that names the server and the way out. */
export async function listening<T>(what: string, host: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      // Not a usage error: exit code 1, as any command's port in use (src/cli/errors.ts).
      throw new KitError(
        'PORT_UNAVAILABLE',
        `Port unavailable: ${host}:${port} (${what}): ` +
          `${code === 'EADDRINUSE' ? 'already in use' : 'not allowed'}; ` +
          'stop what runs there or pick other ports with --port N',
      );
    }
    throw error;
  }
}

/** Binds and releases a port, so a taken one is told in a moment rather than after the databases opened. */
export function probePort(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}
