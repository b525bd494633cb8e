/**
 * The defaults that shape what a compaction sends and keeps. Kept beside the compaction code (not in
 * constants.ts) because only it reads them.
 */

/**
 * The work in progress (the last assistant message and its tool results) stays as it is after a
 * compaction only when it is at most this share of the window; a larger one (a reply with several
 * large file writes) is summarized with the rest, or the compacted transcript would be as large as
 * the one it replaces.
 */
export const COMPACTION_MAX_TAIL_SHARE = 0.25;

/**
 * Room kept free in the summarization request beside its messages, output budget, tools and system
 * (tokens): the estimate of CHARS_PER_TOKEN is not exact.
 */
export const COMPACTION_REQUEST_MARGIN_TOKENS = 2_000;
/** In a small window, the margin is at most this share of it. */
export const COMPACTION_MAX_MARGIN_SHARE = 0.05;

/**
 * The summary's output budget (COMPACTION_MAX_OUTPUT_TOKENS) is at most this share of the window: the
 * API counts the input and max_tokens together against it.
 */
export const COMPACTION_MAX_OUTPUT_SHARE = 0.25;

/**
 * The longest a single text, tool input string or tool result may be in the summarizer's view
 * (characters), tried from the first to the last: the largest that lets every message fit is used.
 * Infinity: nothing shortened. Below the last, the oldest messages are left out instead.
 */
export const COMPACTION_VIEW_BLOCK_CAPS: readonly number[] = [
  Number.POSITIVE_INFINITY,
  64_000,
  32_000,
  16_000,
  8_000,
  4_000,
  2_000,
  1_000,
  500,
];

/**
 * Times the summarization request is sent again with a smaller view after the API refused it as too
 * long (the estimate was off). Then the compaction fails: never a loop.
 */
export const COMPACTION_TOO_LONG_RETRIES = 2;

/** Share of the window a retried summarization request aims at, after a "prompt is too long". */
export const COMPACTION_RETRY_FILL = 0.9;
