/**
 * Public types of the mock Messages API: scripted turns, recorded requests, the server handle.
 * Type-only imports from the SDK keep the shapes in line with what the client sends and receives.
 */
import type Anthropic from '@anthropic-ai/sdk';

/** A text block the mock model answers with. */
export interface ScriptedText {
  type: 'text';
  text: string;
}

/** A tool call the mock model makes. `id` defaults to `toolu_` + 24 alphanumerics. */
export interface ScriptedToolUse {
  type: 'tool_use';
  id?: string;
  name: string;
  input: unknown;
}

/** An extended-thinking block (streamed as thinking_delta chunks, then one signature_delta). */
export interface ScriptedThinking {
  type: 'thinking';
  thinking: string;
  /** Defaults to a fixed opaque string. */
  signature?: string;
}

/** A server-side tool call (web search, web fetch) the API runs itself: streamed like a tool_use. */
export interface ScriptedServerToolUse {
  type: 'server_tool_use';
  /** Defaults to `srvtoolu_` + 24 alphanumerics. */
  id?: string;
  name: 'web_search' | 'web_fetch' | string;
  input: unknown;
}

/**
 * The result of a server tool call, sent whole in its content_block_start (as the API does).
 * `tool_use_id` defaults to the id of the nearest server_tool_use before it.
 */
export interface ScriptedServerToolResult {
  type: 'web_search_tool_result' | 'web_fetch_tool_result';
  tool_use_id?: string;
  content: unknown;
}

export type ScriptedBlock =
  | ScriptedText
  | ScriptedToolUse
  | ScriptedThinking
  | ScriptedServerToolUse
  | ScriptedServerToolResult;

/**
 * A fault instead of (or in the middle of) a normal answer. Every fault consumes its turn, so the SDK's
 * automatic retry of a 429/500/529 gets the next scripted turn.
 * - `rate_limit`: 429 `rate_limit_error` with `retry-after` (seconds, default 0) and `retry-after-ms`
 *   (default 20, or `retryAfterSec * 1000`).
 * - `server_error`: 500 `api_error`; `overloaded`: 529 `overloaded_error` (`retryAfterMs` adds `retry-after-ms`).
 * - `cut_stream`: 200, then `afterEvents` SSE events (default: through the second input_json_delta of
 *   the first tool_use, i.e. message_start, content_block_start, ping and two deltas; `ping` counts as an
 *   event) and the socket is destroyed. Content defaults to a tool_use of Read. A non-streaming request
 *   gets its socket destroyed before any byte (the SDK sees a connection error and retries it).
 * - `stream_error`: 200, `afterEvents` events (default 1), then an SSE `event: error` with the given
 *   error type (default `overloaded_error`), and the stream ends, as the real API does mid-stream.
 *   The SDK does not retry it. A non-streaming request gets the equivalent HTTP error instead.
 * - `http`: any status with an error body `{type, message}`.
 * - `hang`: the connection stays open and goes quiet. Without `afterEvents`: not a byte is answered (no
 *   status, no headers), as a stuck proxy or a dead route; with it: 200, that many events, then nothing.
 *   Held until the client gives up (or the server closes).
 * - `malformed`: 200, `afterEvents` events (default 3), then an SSE data line that is not JSON (`line`,
 *   default a JSON object cut in half), then the stream ends: a proxy or a broken connection that mangled
 *   the stream. A non-streaming request gets a 200 whose body is not JSON.
 */
export type Fault =
  | { kind: 'rate_limit'; retryAfterSec?: number }
  | { kind: 'server_error'; retryAfterMs?: number }
  | { kind: 'overloaded'; retryAfterMs?: number }
  | { kind: 'cut_stream'; afterEvents?: number }
  | { kind: 'stream_error'; afterEvents?: number; type?: string; message?: string }
  | { kind: 'http'; status: number; type: string; message: string }
  | { kind: 'hang'; afterEvents?: number }
  | { kind: 'malformed'; afterEvents?: number; line?: string };

/** One assistant turn: what the mock model says, how fast, or how it fails. */
export interface TurnSpec {
  content?: ScriptedBlock[];
  /** Default: `'tool_use'` if the content has a tool_use, else `'end_turn'`. */
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  /** Reported as `stop_sequence` when `stop_reason` is `'stop_sequence'`. */
  stop_sequence?: string;
  /** Delay between SSE events, to test streaming and interrupts (streaming requests only). */
  chunkDelayMs?: number;
  fault?: Fault;
}

/** A scripted turn, or a function of the request deciding the turn (it may be async). */
export type ScriptedTurn = TurnSpec | ((req: RecordedRequest) => TurnSpec | Promise<TurnSpec>);

/** Request body as the SDK sends it. Rejected requests may not conform to the type. */
export type MessagesBody = Anthropic.MessageCreateParams;

/** One POST /v1/messages, in arrival order, including rejected ones. */
export interface RecordedRequest {
  /** Parsed JSON body (`{}` when the body was not JSON). */
  body: MessagesBody;
  /** Raw body text. */
  rawBody: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The response status; 0 until the response head is written (or when the socket was cut first). */
  status: number;
  /** The `request-id` response header. */
  requestId: string;
  /** `body.stream === true`. */
  stream: boolean;
  /** Time of arrival on the injected clock. */
  receivedAt: number;
  /** The error message when the request was answered with an error (validation, auth, fault). */
  error?: string;
  /** The fault of the consumed turn, if any. */
  fault?: Fault['kind'];
  /** The assistant message sent back (also for streams, even when cut short by a fault). */
  response?: Anthropic.Message;
  /** True when no scripted turn was left and the `[mock] no scripted turn left` text was sent. */
  exhausted?: boolean;
  /** True when the client closed the connection before the response was complete. */
  aborted?: boolean;
  /**
   * Tools the model could see (admitted requests): those sent without defer_loading, plus deferred ones
   * a tool_reference in the messages expanded. Scripted turns may read it to act like the model.
   */
  visibleTools?: string[];
}

/** Options of `startMockApi`. */
export interface MockApiOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Milliseconds clock for prompt-cache TTLs and `receivedAt`. Default `Date.now`. */
  clock?: () => number;
  /** Prompt-cache tuning (defaults: minTokens 1024, lookback 20 blocks). */
  cache?: { minTokens?: number; lookback?: number };
  /**
   * False: behave like an endpoint without tool search; `tool_reference` blocks and `defer_loading` get a
   * 400 (as unknown fields). Default true.
   */
  toolReference?: boolean;
  /**
   * True (default): like the Claude API, a request with a `defer_loading` tool or a `tool_reference`
   * block needs the tool-search beta (`anthropic-beta: advanced-tool-use-2025-11-20`), else a 400.
   */
  requireToolSearchBeta?: boolean;
  /**
   * True: a scripted tool_use naming a tool the model cannot see (not sent, or deferred and never
   * referenced) fails the request with a 400 `[mock] ...` (not retried), so tests catch a client that forgot to load it.
   */
  checkToolVisibility?: boolean;
  /**
   * False: behave like an endpoint without server tools (a gateway, another provider): a request that
   * defines one (`web_search_20250305`, `web_fetch_20250910`) gets a 400 naming it. Default true.
   */
  serverTools?: boolean;
  /**
   * The context window (input tokens, estimated as the cache model does): a request over it gets the
   * real API's 400 `prompt is too long: N tokens > M maximum`, and the models list reports it as
   * `max_input_tokens`. Default: no limit (listed as 200k).
   */
  contextWindow?: number;
}

/** A running mock server. */
export interface MockApi {
  /** e.g. `http://127.0.0.1:54321`: the SDK's baseURL. */
  url: string;
  /** Every POST /v1/messages, in arrival order. */
  requests: RecordedRequest[];
  /** Replaces the queue of scripted turns. */
  script(turns: ScriptedTurn[]): void;
  /** Appends to the queue. */
  push(...turns: ScriptedTurn[]): void;
  /** Scripted turns not yet consumed. */
  pending(): number;
  /** Clears the queue, the recorded requests and the prompt cache. */
  reset(): void;
  /** Stops listening and cuts open connections. */
  close(): Promise<void>;
}
