import { TopicFeed } from '../../adapters/http-server/topic-feed.js';

/** What changed in the sandbox: the wallet app's and the merchant console's pages fetch that part again. */
export type SandboxTopic = 'pay' | 'push' | 'webhooks' | 'loyalty';

/**
 * The sandbox's change notices, published after each committed change (a Pay
 * write, a Push message moved or read, a webhook attempt, a Loyalty call).
 */
export class ChangeFeed extends TopicFeed<SandboxTopic> {}
