// PLACEHOLDER, replaced by the Push work: `sandbox push-account create ...`.
export const PUSH_ACCOUNT_USAGE = '';
export async function pushAccount(_argv: string[]): Promise<void> {
  throw new Error('not implemented yet');
}
