/**
 * Builds the body of one Messages API request, in prefix order tools → system → messages.
 *
 * Tools: the pool's loaded tools (everything not deferred) in pool order, then the deferred tools the
 * transcript has discovered through ToolSearch, in discovery order: with `defer_loading: true` in native
 * mode (the API leaves them out of the prompt until a tool_reference expands them), plain in portable
 * mode. Undiscovered deferred tools are not sent at all.
 *
 * Cache breakpoints (at most MAX_CACHE_BREAKPOINTS): the last loaded tool (never a deferred one), the
 * system prompt, the last message block, and the end of the previous request's messages (the user
 * message before the last assistant message), so a turn that adds more than the API's 20-block lookback
 * still reads the previous turn's prefix. The stored transcript is never mutated.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type CachedToolSchema, type SchemaCache, toolToAPISchema } from './api-schema.ts';
import { MAX_CACHE_BREAKPOINTS, MIN_THINKING_BUDGET_TOKENS, THINKING_ANSWER_TOKENS } from './constants.ts';
import {
  createDeferredToolsState,
  type DeferredToolsState,
  definitionResolver,
  discoveredToolNames,
  dropUnresolvableReferences,
  mapToolResults,
  partitionPool,
  referencesToPortable,
  rememberDefinitions,
} from './deferred-tools.ts';
import type { ContentBlockParam, MessageParam } from './messages.ts';
import type { AnyTool } from './tool.ts';

export interface BuildRequestParams {
  model: string;
  maxTokens: number;
  systemPrompt: string;
  /** The pool, already in cache order (built-ins sorted, then MCP sorted), deferred tools included. */
  tools: readonly AnyTool[];
  messages: readonly MessageParam[];
  schemaCache: SchemaCache;
  /** Use the 1-hour TTL for the breakpoints. */
  cacheTtl?: '5m' | '1h';
  /**
   * The session's deferral state (mode, definitions of discovered tools). Default: a fresh native state.
   * Definitions of the discovered tools sent are remembered in it.
   */
  deferral?: DeferredToolsState;
  /** Extended thinking with this budget; absent: off. */
  thinking?: ThinkingSetting;
}

/** Extended thinking on, with a budget of output tokens for it (at least MIN_THINKING_BUDGET_TOKENS). */
export interface ThinkingSetting {
  budgetTokens: number;
}

/**
 * The `thinking` and `max_tokens` of a request: the budget raised to the API's minimum, and max_tokens
 * raised above the budget when it would not leave THINKING_ANSWER_TOKENS for the answer (the API refuses
 * a budget that is not below max_tokens).
 */
export function thinkingParams(
  maxTokens: number,
  thinking: ThinkingSetting | undefined,
): { max_tokens: number; thinking?: Anthropic.ThinkingConfigEnabled } {
  if (!thinking) return { max_tokens: maxTokens };
  const budget = Math.max(MIN_THINKING_BUDGET_TOKENS, Math.floor(thinking.budgetTokens));
  return {
    max_tokens: Math.max(maxTokens, budget + THINKING_ANSWER_TOKENS),
    thinking: { type: 'enabled', budget_tokens: budget },
  };
}

export type RequestBody = Anthropic.MessageCreateParamsStreaming;

/**
 * The Messages API beta that `defer_loading` tools and `tool_reference` blocks need on the Claude API
 * (header `anthropic-beta`). Sent only with requests that define a deferred tool, so a session without
 * deferred tools (or in portable mode) makes plain requests.
 */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

/** The betas a request body needs: TOOL_SEARCH_BETA when a tool is sent with `defer_loading`. */
export function requestBetas(body: Pick<RequestBody, 'tools'>): string[] {
  const deferred = (body.tools ?? []).some((t) => (t as { defer_loading?: unknown }).defer_loading === true);
  return deferred ? [TOOL_SEARCH_BETA] : [];
}

function cacheControl(ttl: '5m' | '1h' | undefined): Anthropic.CacheControlEphemeral {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** A copy of `message` whose last cacheable block carries cache_control. */
function withCacheOnLastBlock(message: MessageParam, cc: Anthropic.CacheControlEphemeral): MessageParam {
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i];
    if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
    blocks[i] = { ...b, cache_control: cc } as ContentBlockParam;
    break;
  }
  return { ...message, content: blocks } as MessageParam;
}

function apiTool(def: CachedToolSchema, extra: Partial<Anthropic.Tool> = {}): Anthropic.Tool {
  return {
    name: def.name,
    description: def.description,
    input_schema: def.input_schema as Anthropic.Tool.InputSchema,
    ...extra,
  };
}

/** The `tools` of a request (see the module comment) and the names it defines. */
function buildTools(
  p: BuildRequestParams,
  state: DeferredToolsState,
  cc: Anthropic.CacheControlEphemeral,
): { tools: Anthropic.Tool[]; cacheIndex: number } {
  const { loaded, deferred } = partitionPool(p.tools);
  const tools = loaded.map((t) => toolToAPISchema(t, p.schemaCache));
  const loadedNames = new Set(tools.map((t) => t.name));
  const resolve = definitionResolver(deferred, p.schemaCache, state);
  const discovered = discoveredToolNames(p.messages)
    .filter((name) => !loadedNames.has(name))
    .map(resolve)
    .filter((d): d is CachedToolSchema => d !== undefined);
  rememberDefinitions(
    state,
    discovered.map((d) => apiTool(d)),
  );
  const native = state.mode === 'native';
  for (const d of discovered) tools.push(apiTool(d, native ? { defer_loading: true } : {}));
  const cacheIndex = native ? loaded.length - 1 : tools.length - 1;
  if (cacheIndex >= 0) tools[cacheIndex] = { ...tools[cacheIndex], cache_control: cc };
  return { tools, cacheIndex };
}

export function buildRequestBody(p: BuildRequestParams): RequestBody {
  const cc = cacheControl(p.cacheTtl);
  const state = p.deferral ?? createDeferredToolsState('native');
  const { tools, cacheIndex } = buildTools(p, state, cc);
  let breakpoints = cacheIndex >= 0 ? 1 : 0;

  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: p.systemPrompt, cache_control: cc }];
  breakpoints++;

  const defined = new Set(tools.map((t) => t.name));
  const resolve = (name: string) => {
    const t = tools.find((x) => x.name === name);
    return t
      ? { name: t.name, description: t.description ?? '', input_schema: t.input_schema as never }
      : undefined;
  };
  // A transcript may hold references the request cannot define (portable endpoint, lost definition).
  const messages = mapToolResults(p.messages, (b) =>
    state.mode === 'portable'
      ? referencesToPortable(b, resolve)
      : dropUnresolvableReferences(b, (n) => defined.has(n)),
  );
  const last = messages.length - 1;
  if (last >= 0 && breakpoints < MAX_CACHE_BREAKPOINTS) {
    messages[last] = withCacheOnLastBlock(messages[last], cc);
    breakpoints++;
  }
  // The end of the previous request: the user message just before the last assistant message.
  let lastAssistant = -1;
  for (let i = last; i >= 0; i--) {
    if (messages[i].role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const previousEnd = lastAssistant - 1;
  if (previousEnd >= 0 && previousEnd < last && breakpoints < MAX_CACHE_BREAKPOINTS) {
    messages[previousEnd] = withCacheOnLastBlock(messages[previousEnd], cc);
    breakpoints++;
  }
  return {
    model: p.model,
    ...thinkingParams(p.maxTokens, p.thinking),
    ...(tools.length ? { tools } : {}),
    system,
    messages,
    stream: true,
  };
}
