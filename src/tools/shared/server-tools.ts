/**
 * The Messages API's server-side tools (web search, web fetch) as WebSearch and WebFetch use them: a
 * request of their own to the conversation's endpoint whose only tool is the server tool, streamed so
 * the card can say what the server does as it does it. An endpoint that refuses a server tool (a
 * gateway, an older API) is remembered per session, and the tool that needs it steps aside (isEnabled,
 * or WebFetch's fallbacks). Never calls anything but the runtime's own client.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelRuntime } from '../../core/context.ts';
import { messageOf } from '../../core/errors.ts';
import { streamMessages } from '../../core/model/beta-stream.ts';
import { ToolInputError, type ToolProgress } from '../../core/tool.ts';

export type ServerToolKind = 'web_search' | 'web_fetch';

/** Per-session knowledge of which server tools the endpoint refused. */
export interface ServerToolSupport {
  available(kind: ServerToolKind): boolean;
  refuse(kind: ServerToolKind, why: string): void;
  /** Why a kind was refused (for the model and the Usage panel). */
  reason(kind: ServerToolKind): string | undefined;
}

export function createServerToolSupport(): ServerToolSupport {
  const refused = new Map<ServerToolKind, string>();
  return {
    available: (kind) => !refused.has(kind),
    refuse: (kind, why) => void refused.set(kind, why),
    reason: (kind) => refused.get(kind),
  };
}

/** Output budget of one server-tool request (the answer is a summary; the server's results do not count). */
export const SERVER_TOOL_MAX_TOKENS = 4096;

/** True when `err` is the endpoint refusing the server tool itself (400 naming it), not a passing failure. */
export function isServerToolRefusal(err: unknown, kind: ServerToolKind): boolean {
  const status = (err as { status?: unknown })?.status;
  if (status !== 400 && status !== 404) return false;
  const message = messageOf(err);
  return new RegExp(`${kind}|server tool|tools\\.\\d+|does not match any of the expected tags`, 'i').test(
    message,
  );
}

export interface ServerToolRequest {
  runtime: ModelRuntime;
  kind: ServerToolKind;
  tool: Record<string, unknown>;
  system: string;
  prompt: string;
  signal: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** A status line for a server_tool_use block as it starts (its input as far as known). */
  describeUse?: (input: Record<string, unknown>) => string;
  /** A status line for a result block as it arrives. */
  describeResult?: (block: Anthropic.ContentBlock) => string | undefined;
}

/**
 * Sends the request and returns the final message. Throws ToolInputError when the endpoint refuses the
 * server tool (the caller remembers it) or the request fails; an abort rejects with the abort.
 */
export async function runServerTool(req: ServerToolRequest): Promise<Anthropic.Message> {
  const { runtime } = req;
  const body = {
    model: runtime.model,
    max_tokens: Math.min(runtime.maxTokens, SERVER_TOOL_MAX_TOKENS),
    stream: true as const,
    system: req.system,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: req.prompt }] }],
    tools: [req.tool] as unknown as Anthropic.ToolUnion[],
  };
  const stream = streamMessages(runtime.client, body, [], { signal: req.signal });
  const inputs = new Map<number, string>();
  try {
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') {
        const block = ev.content_block;
        if (block.type === 'server_tool_use') {
          inputs.set(ev.index, '');
          req.onProgress?.({ kind: 'status', text: req.describeUse?.({}) ?? `${block.name}…` });
        } else {
          const line = req.describeResult?.(block);
          if (line) req.onProgress?.({ kind: 'status', text: line });
        }
      } else if (
        ev.type === 'content_block_delta' &&
        ev.delta.type === 'input_json_delta' &&
        inputs.has(ev.index)
      ) {
        inputs.set(ev.index, (inputs.get(ev.index) ?? '') + ev.delta.partial_json);
      } else if (ev.type === 'content_block_stop' && inputs.has(ev.index)) {
        try {
          const input = JSON.parse(inputs.get(ev.index) || '{}') as Record<string, unknown>;
          if (req.describeUse) req.onProgress?.({ kind: 'status', text: req.describeUse(input) });
        } catch {
          // A partial input says nothing worth showing.
        }
      }
    }
    return await stream.finalMessage();
  } catch (err) {
    if (req.signal.aborted) throw err;
    if (isServerToolRefusal(err, req.kind)) {
      throw new ServerToolRefused(messageOf(err));
    }
    throw new ToolInputError(`The ${req.kind.replace('_', ' ')} request failed: ${messageOf(err)}`);
  }
}

/** The endpoint does not offer the server tool. */
export class ServerToolRefused extends ToolInputError {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/** The text blocks of a message, joined. */
export function messageText(message: Anthropic.Message): string {
  return message.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('')
    .trim();
}
