/**
 * Behaviour-altering defaults. Everything the loop, the tools and the cache do by default lives here,
 * so a reader finds every knob in one place.
 */

/** Most tool calls of one concurrency-safe batch that run at the same time. */
export const MAX_TOOL_CONCURRENCY = 10;

/** The loop stops after this many model requests in one user turn (a runaway guard). */
export const MAX_TURNS = 50;

/** Default model and output budget. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_MAX_TOKENS = 8192;

/** Results longer than this (characters) are spilled to storage unless a tool sets its own limit. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** Bash: default and maximum timeout of one command, in milliseconds. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

/** Bash output kept per stream (characters); the middle of longer output is cut. */
export const BASH_MAX_OUTPUT_CHARS = 30_000;

/** Read: lines returned when no limit is given, and the longest line kept (characters). */
export const READ_DEFAULT_LINE_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Read: most characters of numbered output one call returns (Read never spills; later lines are left out with a note). */
export const READ_MAX_OUTPUT_CHARS = 100_000;

/** Grep: default cap on returned lines / files when no head_limit is given. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;

/** Glob: most paths returned. */
export const GLOB_MAX_RESULTS = 100;

/** The user message that marks an interrupted turn (Claude Code's wording). */
export const INTERRUPT_MESSAGE = '[Request interrupted by user]';
export const INTERRUPT_MESSAGE_FOR_TOOL_USE = '[Request interrupted by user for tool use]';

/** The synthetic result given to a tool_use that never got a real one. */
export const SYNTHETIC_TOOL_RESULT_INTERRUPTED =
  'The user interrupted this tool call before it finished; it did not complete. Ask the user how to proceed.';
export const SYNTHETIC_TOOL_RESULT_MISSING =
  'Tool result missing: the call was not completed (the session was interrupted or restored). Run it again if still needed.';

/** Anthropic's cap on cache_control breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The path of the workspace inside every sandbox. */
export const WORKSPACE_ROOT = '/home/user/project';
