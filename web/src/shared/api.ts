/** A refusal in the kit's envelope `{ status, errors[] }` (or a network failure, status `NETWORK`). */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly status: string,
    readonly errors: string[],
  ) {
    super(`${status}: ${errors.join('; ') || `HTTP ${httpStatus}`}`);
  }
}

/** Calls a JSON API of the page's own server; throws {@link ApiError} for a non-2xx answer. */
export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', [`the server did not answer (${(error as Error).message})`]);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const envelope = json as { status?: string; errors?: string[] } | undefined;
    throw new ApiError(
      response.status,
      envelope?.status ?? `HTTP_${response.status}`,
      envelope?.errors ?? [text.slice(0, 200)],
    );
  }
  return json as T;
}

/** An error's text for a person. */
export function describe(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
