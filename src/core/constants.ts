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
/**
 * Times the SDK retries a failed request (429, 5xx, 529 overloaded, connection errors) before the loop
 * sees the error. The SDK waits what retry-after says, else 0.5 s doubled (1, 2, 4 s), so a turn rides
 * out several seconds of overload (the page counts each wait down) instead of failing after 1.5 s, as
 * the SDK's default of 2 did; a base URL that refuses connections still says so within ~8 s.
 */
export const MODEL_MAX_RETRIES = 4;
/**
 * A model request that gets no byte for this long (no headers yet, or no chunk of the stream, whose
 * pings count) is taken for a dead connection: given up and sent again (src/core/model/stall-guard.ts).
 * The SDK's own timeout stops at the headers, so a stream that goes quiet after them waited for ever.
 */
export const STREAM_IDLE_TIMEOUT_MS = 120_000;

/** Default model and output budget. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_MAX_TOKENS = 8192;

/** Results longer than this (characters) are spilled to storage unless a tool sets its own limit. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** Most characters of inline tool results in one user message; past it the largest results are spilled. */
export const MAX_TOOL_RESULTS_PER_MESSAGE_CHARS = 200_000;
/**
 * Most base64 characters of images and documents in the tool results of one user message (every
 * later request carries them again; the API takes 32 MB a request). They are kept in order while
 * they fit; the rest are left out with a note.
 */
export const MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS = 10 * 1024 * 1024;
/** The API's limit on one image: the length of its base64 data (5 MB); larger ones are rejected. */
export const API_IMAGE_MAX_BASE64_CHARS = 5 * 1024 * 1024;

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

// ---- Long sessions: context window, compaction, thinking, memory, hooks, the loop guard ----------

/** Context window (input tokens) of a model the Models API says nothing about and the table does not know. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
/**
 * Context windows by model id prefix (the longest matching prefix wins), for when the Models API gives
 * no `max_input_tokens`. Current Claude models take 200k tokens by default (1M is an opt-in beta).
 */
export const MODEL_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3': 200_000,
  'claude-2.1': 200_000,
  'claude-2.0': 100_000,
  'claude-instant': 100_000,
};
/** The context meter warns once the last request used this share of the window. */
export const CONTEXT_WARNING_RATIO = 0.8;
/** Auto-compaction runs before a request that would pass this share of the window (a setting; this is its default). */
export const DEFAULT_AUTO_COMPACT_RATIO = 0.85;
/** Lowest and highest auto-compaction threshold the setting accepts. */
export const MIN_AUTO_COMPACT_RATIO = 0.3;
export const MAX_AUTO_COMPACT_RATIO = 0.95;
/** Characters per token when a size must be estimated before the API has measured it. */
export const CHARS_PER_TOKEN = 4;
/**
 * Clearing old tool results (first step of context management, like Anthropic's context editing):
 * the most recent results are kept, and only results longer than the minimum are cleared.
 */
export const CLEAR_KEEP_RECENT_TOOL_RESULTS = 3;
export const CLEAR_MIN_TOOL_RESULT_CHARS = 2_000;
/** What a cleared tool result says to the model instead of its content. */
export const CLEARED_TOOL_RESULT_TEXT =
  '[Old tool result cleared to free context. Run the tool again if you need this output.]';
/** Output budget of the summarization request. */
export const COMPACTION_MAX_OUTPUT_TOKENS = 8_192;
/**
 * The same failing tool call (same tool, same input, same error) this many times in one turn ends the
 * turn with a message to the user instead of burning tokens on it.
 */
export const MAX_REPEATED_TOOL_FAILURES = 3;
/** Smallest extended-thinking budget the API takes, and the default budget when thinking is turned on. */
export const MIN_THINKING_BUDGET_TOKENS = 1_024;
export const DEFAULT_THINKING_BUDGET_TOKENS = 4_096;
/** Output tokens left for the answer when a thinking budget would not fit under max_tokens. */
export const THINKING_ANSWER_TOKENS = 1_024;
/** The memory files read into the context at the start of a turn, in this order. */
export const MEMORY_FILES: readonly string[] = ['CLAUDE.md', '.claude/CLAUDE.md'];
/** Longest memory (characters, all files together) sent to the model; the rest is cut with a note. */
export const MAX_MEMORY_CHARS = 40_000;
/** A hook command that runs longer than this is stopped and the call goes on (Claude Code's default: 60 s). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** Most characters of a hook's stdout or stderr kept (shown or passed to the model). */
export const MAX_HOOK_OUTPUT_CHARS = 10_000;
/** `@` mentions: most files attached to one prompt, and most characters of each. */
export const MAX_MENTIONED_FILES = 10;
export const MAX_MENTION_FILE_CHARS = 100_000;
/** Times a Stop hook may send the model back to work in one turn (a hook that always blocks cannot loop). */
export const MAX_STOP_HOOK_CONTINUES = 3;
/** Told to the model (with the next prompt) when the loop guard stopped a turn. */
export const REPEATED_FAILURE_MESSAGE =
  '[The turn was stopped: the same tool call kept failing with the same error. Do not repeat it; ask the user or try something different.]';
/**
 * Limits on the shape of a tool_use input (src/core/input-shape.ts): deeper, longer or larger inputs are
 * refused with an is_error before anything parses them, and the transcript keeps a small marker instead,
 * so one hostile input cannot break every later request. Far above what a real tool call needs.
 */
export const MAX_TOOL_INPUT_DEPTH = 64;
/** Characters of all strings and keys of one tool input together. */
export const MAX_TOOL_INPUT_CHARS = 2_000_000;
/** Values (objects, arrays, strings, numbers...) in one tool input. */
export const MAX_TOOL_INPUT_VALUES = 200_000;
