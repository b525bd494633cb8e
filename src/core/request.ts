/**
 * Builds the body of one Messages API request, in prefix order tools → system → messages, with
 * cache_control breakpoints at the end of tools, the end of system and the last message block
 * (at most MAX_CACHE_BREAKPOINTS). The stored transcript is never mutated.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type SchemaCache, toolToAPISchema } from './api-schema.ts';
import { MAX_CACHE_BREAKPOINTS } from './constants.ts';
import type { ContentBlockParam, MessageParam } from './messages.ts';
import type { AnyTool } from './tool.ts';

export interface BuildRequestParams {
  model: string;
  maxTokens: number;
  systemPrompt: string;
  /** The pool, already in cache order (built-ins sorted, then MCP sorted). */
  tools: readonly AnyTool[];
  messages: readonly MessageParam[];
  schemaCache: SchemaCache;
  /** Use the 1-hour TTL for the breakpoints. */
  cacheTtl?: '5m' | '1h';
}

export type RequestBody = Anthropic.MessageCreateParamsStreaming;

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

export function buildRequestBody(p: BuildRequestParams): RequestBody {
  const cc = cacheControl(p.cacheTtl);
  let breakpoints = 0;
  const tools = p.tools.map((t, i) => {
    const last = i === p.tools.length - 1;
    if (last) breakpoints++;
    return toolToAPISchema(t, p.schemaCache, last ? { cacheControl: cc } : {});
  });
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: p.systemPrompt, cache_control: cc }];
  breakpoints++;
  const messages = p.messages.slice();
  if (messages.length > 0 && breakpoints < MAX_CACHE_BREAKPOINTS) {
    messages[messages.length - 1] = withCacheOnLastBlock(messages[messages.length - 1], cc);
  }
  return {
    model: p.model,
    max_tokens: p.maxTokens,
    ...(tools.length ? { tools } : {}),
    system,
    messages,
    stream: true,
  };
}
