export { createPushClient, type PushClient, type PushClientOptions, type SendOptions } from '../push/client.js';
export { PushError, type PushErrorCode, type PushErrorDetails } from '../push/errors.js';
export {
  sendCampaign,
  type BatchResult,
  type CampaignOptions,
  type CampaignProgressEvent,
  type CampaignReport,
  type RejectionReason,
} from '../push/campaign.js';
export { readMsisdnFile, type MsisdnFileOptions, type MsisdnSource } from '../push/sources.js';
export type { BatchProgress, CampaignProgress } from '../push/progress.js';
export type { NumberResult, ResultsFile } from '../push/results-file.js';
