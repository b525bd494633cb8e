/**
 * The host side of the requests an MCP server sends the client: elicitation forms and sampling
 * approvals go to the queue the page shows (interactions.ts), roots come from the workspace. Only what
 * is given here is declared as a capability (connection.ts), so a server never asks for more.
 */
import type { ClientRequestHost } from './connection.ts';
import type { InteractionQueue } from './interactions.ts';
import type { McpSampler } from './manager-api.ts';

export interface RequestHostOptions {
  queue: InteractionQueue;
  /** False: elicitation is not offered. */
  elicitation: boolean;
  /**
   * The sampler of the moment (it runs an approved request on tabcode's model): none when the host
   * is made, and sampling is not offered; none later, and a request is refused.
   */
  sampler: () => McpSampler | undefined;
  roots: (() => Array<{ uri: string; name?: string }>) | undefined;
}

/** The host for one connection, from what the manager offers at the time it connects. Never throws. */
export function serverRequestHost({
  queue,
  elicitation,
  sampler,
  roots,
}: RequestHostOptions): ClientRequestHost {
  return {
    ...(elicitation
      ? {
          elicit: (req, signal) =>
            queue.ask(
              {
                kind: 'elicitation',
                server: req.server,
                message: req.message,
                fields: req.fields,
                ...(req.toolUseId ? { toolUseId: req.toolUseId } : {}),
              },
              signal,
            ),
        }
      : {}),
    ...(sampler()
      ? {
          sample: async (req, signal) => {
            const answer = await queue.ask(
              {
                kind: 'sampling',
                server: req.server,
                summary: req.summary,
                ...(req.toolUseId ? { toolUseId: req.toolUseId } : {}),
              },
              signal,
            );
            if (answer.action !== 'approve') {
              const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
              throw new McpError(-1, 'The user declined the sampling request.');
            }
            const run = sampler();
            if (!run) throw new Error('Sampling is no longer available in this session.');
            return run(req.params, signal);
          },
        }
      : {}),
    ...(roots ? { roots } : {}),
  };
}
