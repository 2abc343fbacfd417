/** What `pay check` writes instead of a secret. */
export const MASK = '<masked>';

/** One HTTP exchange as the probe saw it, secrets masked. */
export interface PayCheckExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  /** The answer; absent when none came (see `error`). */
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Why no answer came (refused, reset, timed out). */
  error?: string;
  /** From sending to the answer's body read. */
  durationMs: number;
}

/** A fetch that records every exchange, and what it recorded. */
export interface Recorder {
  fetch: typeof fetch;
  exchanges: PayCheckExchange[];
  /** The exchange whose request carried this `x-request-id`. */
  byRequestId(id: string): PayCheckExchange | undefined;
}

// Headers whose values are credentials whatever the service calls its token.
const ALWAYS_MASKED = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
// An answer with one of these statuses must not be given a body (the Response constructor refuses it).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps `fetch` (outside the Pay client: its hot path stays as it is) so that
 * each request and answer is kept as text. The token header's value, the
 * usual credential headers and every string of `secrets` are masked.
 */
export function createRecorder(inner: typeof fetch, tokenHeader: string, secrets: readonly string[]): Recorder {
  const exchanges: PayCheckExchange[] = [];
  const masked = new Set([...ALWAYS_MASKED, tokenHeader.toLowerCase()]);
  const hide = (text: string) => maskSecrets(text, secrets);
  const headersOf = (headers: Headers) => {
    const out: Record<string, string> = {};
    headers.forEach((value, name) => {
      out[name] = masked.has(name) ? MASK : hide(value);
    });
    return out;
  };
  const recorded: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init?.body === 'string' ? init.body : '';
    const exchange: PayCheckExchange = {
      request: {
        method: init?.method ?? 'GET',
        url: hide(url),
        headers: headersOf(new Headers(init?.headers)),
        body: hide(body),
      },
      durationMs: 0,
    };
    exchanges.push(exchange);
    const started = performance.now();
    try {
      const response = await inner(input, init);
      const text = await response.text();
      exchange.durationMs = performance.now() - started;
      exchange.response = { status: response.status, headers: headersOf(response.headers), body: hide(text) };
      return new Response(NULL_BODY.has(response.status) ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      exchange.durationMs = performance.now() - started;
      exchange.error = hide(describe(error));
      throw error;
    }
  };
  return {
    fetch: recorded,
    exchanges,
    byRequestId: (id) => exchanges.find((e) => e.request.headers['x-request-id'] === id),
  };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (error instanceof Error && error.name === 'AbortError') return 'aborted (timeout)';
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** `text` with every secret (of 4 characters or more, in any letter case for hex) replaced by {@link MASK}. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const pattern = new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), /^[0-9a-f]+$/i.test(secret) ? 'gi' : 'g');
    out = out.replace(pattern, MASK);
  }
  return out;
}

/**
 * The value at a reader's JSON path (`providers[0].Bank_Code`), or undefined.
 * Keys holding `.` or `[` cannot be told apart in such a path: best effort.
 */
export function valueAt(root: unknown, path: string): unknown {
  let node = root;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (index !== undefined) {
      if (!Array.isArray(node)) return undefined;
      node = node[Number(index)];
    } else {
      if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key!))
        return undefined;
      node = (node as Record<string, unknown>)[key!];
    }
  }
  return node;
}

/** A value as short JSON text for a report line. */
export function showValue(value: unknown, max = 120): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
