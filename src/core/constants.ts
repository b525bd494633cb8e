/**
 * Behaviour-altering defaults. Everything the loop, the tools and the cache do by default lives here,
 * so a reader finds every knob in one place.
 */

/** Most tool calls of one concurrency-safe batch that run at the same time. */
export const MAX_TOOL_CONCURRENCY = 10;

/** The loop stops after this many model requests in one user turn (a runaway guard). */
export const MAX_TURNS = 50;
/**
 * Times a request is sent again after its stream failed partway (an SSE `error` event such as
 * overloaded_error, or the connection cut after the response began). The SDK retries only failures
 * before a response; nothing of a cut reply ran, so sending it again is safe.
 */
export const MAX_STREAM_RETRIES = 2;
/** Wait before the first stream retry; doubled for each next one. */
export const STREAM_RETRY_BASE_MS = 500;
/** Times the SDK retries a failed request (429, 5xx, connection errors) before the loop sees the error. */
export const MODEL_MAX_RETRIES = 2;

/** Default model and output budget. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_MAX_TOKENS = 8192;

/** Results longer than this (characters) are spilled to storage unless a tool sets its own limit. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** Most characters of inline tool results in one user message; past it the largest results are spilled. */
export const MAX_TOOL_RESULTS_PER_MESSAGE_CHARS = 200_000;

/** Length of the preview a spilled result keeps inline (cut at a newline past its middle). */
export const PERSISTED_OUTPUT_PREVIEW_CHARS = 2_000;

/** The virtual directory Read serves spilled results from: `<dir>/<tool_use_id>.txt`. */
export const SPILLED_RESULTS_DIR = '/.tabcode/results';

/** Spilled results older than this are evicted from storage. */
export const RESULT_STORE_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** Past this many stored characters, the oldest spilled results are evicted first. */
export const RESULT_STORE_MAX_TOTAL_CHARS = 50_000_000;

/** The tool that loads deferred tools (MCP tools, `shouldDefer` built-ins). Core knows it only by name. */
export const TOOL_SEARCH_TOOL_NAME = 'ToolSearch';
/** ToolSearch: results when the query gives no max_results, and the most it may ask for. */
export const TOOL_SEARCH_DEFAULT_MAX_RESULTS = 5;
export const TOOL_SEARCH_MAX_RESULTS_LIMIT = 25;

/** Prompt-cache TTL of the breakpoints; '1h' costs more to write and survives idle hours. */
export const DEFAULT_CACHE_TTL: '5m' | '1h' = '5m';

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

/** MCP: how long connecting to a server (transport + initialize + first tools/list) may take. */
export const MCP_CONNECT_TIMEOUT_MS = 15_000;
/** MCP: how long one tools/call may take before it fails with a timeout (per server, overridable). */
export const MCP_TOOL_TIMEOUT_MS = 120_000;
/** MCP: longest tool description sent to the model (characters); longer ones are cut with a note. */
export const MCP_MAX_DESCRIPTION_CHARS = 2048;
/** MCP: a tool whose input schema serializes longer than this (characters) is skipped. */
export const MCP_MAX_SCHEMA_CHARS = 60_000;

/** MCP: first wait before reconnecting to a server that dropped; doubled per attempt up to the max. */
export const MCP_RECONNECT_BASE_MS = 1_000;
export const MCP_RECONNECT_MAX_MS = 30_000;
/** MCP: automatic reconnects tried after a drop before the server stays disconnected (Reconnect in the panel). */
export const MCP_RECONNECT_MAX_ATTEMPTS = 12;
/** MCP: how long a tool call waits for its server to come back (reconnect or re-initialize) before it fails. */
export const MCP_WAIT_FOR_RECONNECT_MS = 15_000;
/** MCP: notifications/…/list_changed within this window trigger one refetch (a storm costs one rebuild). */
export const MCP_LIST_CHANGED_DEBOUNCE_MS = 50;
/** MCP: most tools taken from one server; the rest are skipped with one note. */
export const MCP_MAX_TOOLS_PER_SERVER = 1_000;
/** MCP: longest server `instructions` added to the context (characters); longer ones are cut with a note. */
export const MCP_MAX_INSTRUCTIONS_CHARS = 2_048;
/** MCP: log entries (notifications/message) kept per server for the MCP panel, and the longest kept. */
export const MCP_MAX_LOG_ENTRIES = 200;
export const MCP_MAX_LOG_ENTRY_CHARS = 2_000;
/** MCP: largest image (decoded bytes) sent to the model; larger ones are downscaled in the page or noted. */
export const MCP_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** MCP: the longer side of an image downscaled to fit (pixels). */
export const MCP_IMAGE_DOWNSCALE_MAX_SIDE = 1_568;
/** MCP: progress notifications extend a call's timeout, but never past this total (ms). */
export const MCP_MAX_TOTAL_TOOL_TIME_MS = 30 * 60_000;
/** MCP: most characters of one resource attached for an `@server:uri` mention. */
export const MCP_MAX_MENTION_CHARS = 100_000;
