/**
 * `url` with its password replaced, for logs and messages: `redis://:***@host:6379`. Every URL the kit
 * logs or puts in an error goes through here, since configuration URLs may carry credentials.
 */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace('%2A%2A%2A', '***').replace(/\/$/, '');
  } catch {
    return 'the URL given (not a valid URL)';
  }
}
