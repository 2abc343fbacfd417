// PLACEHOLDER, replaced by the Loyalty work: `loyalty [--port N] [--demo]` and `loyalty check --url URL`.
export const LOYALTY_USAGE = '';
export async function loyalty(_argv: string[]): Promise<void> {
  throw new Error('not implemented yet');
}
