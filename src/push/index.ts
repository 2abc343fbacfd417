export { createPushClient, type PushClient, type PushClientOptions, type SendOptions } from './client.js';
export { PushError, type PushErrorCode, type PushErrorDetails } from './errors.js';
export {
  sendCampaign,
  type BatchResult,
  type CampaignOptions,
  type CampaignProgressEvent,
  type CampaignReport,
  type RejectionReason,
} from './campaign.js';
export { readMsisdnFile, type MsisdnFileOptions, type MsisdnSource } from './sources.js';
export type { BatchProgress, CampaignProgress } from './progress.js';
export type { NumberResult, ResultsFile } from './results-file.js';
