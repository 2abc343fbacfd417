export { createPushClient, type PushClient, type PushClientOptions, type SendOptions } from './client.js';
export { PushError, type PushErrorCode, type PushErrorDetails } from './errors.js';
export {
  sendCampaign, type BatchResult, type CampaignOptions, type CampaignProgressEvent, type CampaignReport, type RejectionReason,
} from './campaign.js';
export { isValidMsisdn, normalizeMsisdn, readMsisdnFile, readMsisdnText, type MsisdnFileOptions, type MsisdnSource } from './sources.js';
export { readProgress, writeProgress, type BatchProgress, type CampaignProgress } from './progress.js';
export { openResultsFile, type NumberResult, type ResultsFile } from './results-file.js';
