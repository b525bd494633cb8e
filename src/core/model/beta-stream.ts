/**
 * One streamed Messages request, through the SDK's beta interface when the request needs betas (it sends
 * them as the `anthropic-beta` header, e.g. for deferred tools and tool_reference blocks), through the
 * plain interface otherwise. Both return the same stream shape; the beta types are a superset.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';

/** Streams `body`; with `betas`, via `client.beta.messages.stream` (header `anthropic-beta`). */
export function streamMessages(
  client: Anthropic,
  body: Anthropic.MessageCreateParamsStreaming,
  betas: readonly string[],
  options: { signal?: AbortSignal } = {},
): MessageStream {
  if (betas.length === 0) return client.messages.stream(body, options);
  const params = { ...body, betas: [...betas] } as unknown as Anthropic.Beta.MessageCreateParamsStreaming;
  return client.beta.messages.stream(params, options) as unknown as MessageStream;
}
