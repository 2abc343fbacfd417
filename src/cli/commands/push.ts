// PLACEHOLDER, replaced by the Push work: `push send ...`.
export const PUSH_USAGE = '';
export async function push(_argv: string[]): Promise<void> {
  throw new Error('not implemented yet');
}
