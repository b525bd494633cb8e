/**
 * Sampling (`sampling/createMessage`): a server asks the client's model to write something. tabcode
 * offers it only when the session gives a model (setSampler), and the manager runs it only after the
 * user approves the request. Here: MCP's request → a Messages API request, and the reply → MCP's
 * CreateMessageResult (text; a reply with tool use or nothing usable says so).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { McpSampler } from './manager.ts';
import { base64Bytes, formatBytes, sniffImageType } from './results.ts';

/** What the session's model is asked (already in Messages API form). */
export interface SamplingRequest {
  system?: string;
  messages: Anthropic.MessageParam[];
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
}

/** Runs a request on the session's model (its client, key and model). */
export type RunModel = (request: SamplingRequest, signal: AbortSignal) => Promise<Anthropic.Message>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One MCP sampling content part → a Messages API block. */
function toBlock(part: unknown): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  const p = isObject(part) ? part : {};
  if (p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.type === 'image' && typeof p.data === 'string') {
    const media = sniffImageType(p.data);
    if (media) return { type: 'image', source: { type: 'base64', media_type: media, data: p.data } };
  }
  const size = typeof p.data === 'string' ? `, ${formatBytes(base64Bytes(p.data))}` : '';
  return {
    type: 'text',
    text: `[${String(p.type ?? 'content')}${typeof p.mimeType === 'string' ? ` ${p.mimeType}` : ''}${size} omitted]`,
  };
}

/** MCP CreateMessageRequest params → a Messages API request (roles kept, consecutive ones merged). */
export function samplingRequest(params: Record<string, unknown>, maxTokensCap: number): SamplingRequest {
  const messages: Anthropic.MessageParam[] = [];
  for (const m of Array.isArray(params.messages) ? params.messages : []) {
    if (!isObject(m)) continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = (Array.isArray(m.content) ? m.content : [m.content]).map(toBlock);
    const last = messages[messages.length - 1];
    if (last && last.role === role && Array.isArray(last.content))
      for (const b of blocks) last.content.push(b);
    else messages.push({ role, content: blocks });
  }
  if (messages.length === 0 || messages[0].role !== 'user')
    messages.unshift({ role: 'user', content: '(no message)' });
  const asked = Number(params.maxTokens);
  return {
    messages,
    maxTokens: Math.max(
      1,
      Math.min(Number.isFinite(asked) && asked > 0 ? asked : maxTokensCap, maxTokensCap),
    ),
    ...(typeof params.systemPrompt === 'string' && params.systemPrompt
      ? { system: params.systemPrompt }
      : {}),
    ...(typeof params.temperature === 'number' ? { temperature: params.temperature } : {}),
    ...(Array.isArray(params.stopSequences) ? { stopSequences: params.stopSequences.map(String) } : {}),
  };
}

const STOP: Record<string, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
};

/** A Messages API reply → MCP CreateMessageResult. */
export function samplingResult(message: Anthropic.Message): Record<string, unknown> {
  const text = message.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
  return {
    role: 'assistant',
    content: { type: 'text', text: text || '(The model gave no text.)' },
    model: message.model,
    stopReason: STOP[message.stop_reason ?? ''] ?? message.stop_reason ?? 'endTurn',
  };
}

/** The manager's sampler on top of the session's model; `maxTokens` caps what a server may ask for. */
export function createMcpSampler(run: RunModel, maxTokens: () => number): McpSampler {
  return async (params, signal) => samplingResult(await run(samplingRequest(params, maxTokens()), signal));
}
