/** Long sessions: measuring the context, clearing old tool results, compaction. */
export { type ClearOptions, type ClearOutcome, clearOldToolResults } from './clear.ts';
export {
  type ContextTracker,
  contextTokensOfUsage,
  createContextTracker,
  estimateJsonTokens,
  estimateRequestTokens,
  recordUsage,
  tokensOfChars,
} from './estimate.ts';
export {
  autoCompactRatio,
  type ContextSettings,
  type ManageOutcome,
  type ManageParams,
  manageContext,
} from './manage.ts';
export {
  COMPACTED_HEADER,
  extractSummary,
  isSummaryText,
  summaryInstructions,
  summaryMessageText,
} from './prompt.ts';
export {
  type CompactOutcome,
  type CompactParams,
  compactConversation,
  isPromptTooLong,
  nothingToCompact,
} from './summarize.ts';
export { compactedTranscript, type SplitOptions, splitForCompaction } from './transcript.ts';
export { type SummaryView, summaryView } from './view.ts';
