import type { Logger } from 'pino';
import { KitError } from '../errors.js';
import { withoutPassword } from '../net/masked-url.js';

/** A service the cash desk server calls, and how to tell whether it answers. */
export interface DependencyProbe {
  /** As people call it: `Redis`, `the Pay API`. */
  readonly name: string;
  /** Where it was looked for, without secrets. */
  readonly target: string;
  /** What it costs the server while it does not answer, for the warning. */
  readonly meanwhile: string;
  /** Resolves when it answered; rejects with why not. */
  probe(signal: AbortSignal): Promise<void>;
}

/** How long a start-up probe waits for an answer. */
export const DEPENDENCY_PROBE_MS = 3000;

/** Why a call got no answer, as specific as Node says: a cause's code (ECONNREFUSED, ENOTFOUND) or the message. */
export function noAnswerReason(error: unknown): string {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
    if (e.cause === undefined) return typeof e.message === 'string' ? e.message : String(e);
  }
  return String(error);
}

export { withoutPassword } from '../net/masked-url.js';

/**
 * Asks each dependency once, side by side, within {@link DEPENDENCY_PROBE_MS}. Each that does not answer is said
 * in one `warn` line naming it (the server starts all the same and answers 503 for what needs it until it is
 * back), or, when `required`, ends the start with a `DEPENDENCY_UNREACHABLE` error naming the first.
 */
export async function checkDependencies(
  probes: readonly DependencyProbe[],
  logger: Logger,
  required: boolean,
): Promise<void> {
  const results = await Promise.all(
    probes.map(async (dependency) => {
      const signal = AbortSignal.timeout(DEPENDENCY_PROBE_MS);
      try {
        await Promise.race([
          dependency.probe(signal),
          new Promise<never>((_, reject) => {
            signal.addEventListener('abort', () => reject(new Error(`no answer within ${DEPENDENCY_PROBE_MS} ms`)), {
              once: true,
            });
          }),
        ]);
        return undefined;
      } catch (error) {
        return { dependency, reason: noAnswerReason(error) };
      }
    }),
  );
  for (const failed of results) {
    if (failed === undefined) continue;
    const { dependency: d, reason } = failed;
    if (required) {
      throw new KitError(
        'DEPENDENCY_UNREACHABLE',
        `cannot reach ${d.name} at ${d.target} (${reason}); --require-dependencies (requireDependencies) makes ` +
          `that fatal`,
      );
    }
    logger.warn(
      { dependency: d.name, target: d.target, reason },
      `${d.name} at ${d.target} does not answer (${reason}); starting without it: ${d.meanwhile}`,
    );
  }
}

/** A probe of an HTTP service: any answer at all, whatever its status, counts as reachable. */
export function httpProbe(name: string, url: string, meanwhile: string): DependencyProbe {
  return {
    name,
    target: withoutPassword(url),
    meanwhile,
    async probe(signal) {
      const res = await fetch(url, { method: 'HEAD', signal, redirect: 'manual' });
      await res.body?.cancel();
    },
  };
}

/** What `serve` asks at start: Redis (`redisUrl`) with one PING, the Pay API (`pay.url`) with one HEAD request. */
export function startupProbes(config: {
  redisUrl?: string | undefined;
  pay?: { url: string } | undefined;
}): DependencyProbe[] {
  const probes: DependencyProbe[] = [];
  const { redisUrl, pay } = config;
  if (redisUrl !== undefined) {
    probes.push({
      name: 'Redis',
      target: withoutPassword(redisUrl),
      meanwhile: 'barcode checks answer 503 until it is back (GET /healthz says redis: false)',
      async probe() {
        // A client of its own that tries once, so the reason is the connection's (ECONNREFUSED), not a retry limit.
        const { Redis } = await import('ioredis');
        const client = new Redis(redisUrl, {
          lazyConnect: true,
          retryStrategy: () => null,
          maxRetriesPerRequest: 0,
          enableOfflineQueue: false,
        });
        let refused: unknown;
        client.on('error', (error: unknown) => {
          refused ??= error;
        });
        try {
          await client.connect();
          await client.ping();
        } catch (error) {
          // The socket's error (ECONNREFUSED), where connect() says only "Connection is closed."
          throw refused ?? error;
        } finally {
          client.disconnect();
        }
      },
    });
  }
  if (pay !== undefined)
    probes.push(httpProbe('the Pay API', pay.url, 'wallet payments fail (NETWORK) until it answers'));
  return probes;
}
