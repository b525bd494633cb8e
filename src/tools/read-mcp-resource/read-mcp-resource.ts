/**
 * ReadMcpResource: reads one resource of a connected MCP server by URI (from ListMcpResources, or a
 * resource link a tool returned). Deferred like MCP tools, read-only, offered only while some connected
 * server has resources. Large contents go through the loop's spill like any result.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { DEFAULT_MAX_RESULT_SIZE_CHARS } from '../../core/constants.ts';
import { messageOf } from '../../core/errors.ts';
import { type AnyTool, buildTool, ToolInputError } from '../../core/tool.ts';
import { hasResources, type McpResourceSource } from '../shared/mcp-resource-source.ts';
import promptText from './prompt.md?raw';

const inputSchema = z.strictObject({
  server: z.string().describe('The MCP server that offers the resource'),
  uri: z.string().min(1).describe('The URI of the resource to read'),
});

type Block = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

interface ReadOutput {
  server: string;
  uri: string;
  blocks: Block[];
}

export function createReadMcpResourceTool(source: McpResourceSource): AnyTool {
  return buildTool({
    name: 'ReadMcpResource',
    searchHint: 'mcp resource read open fetch uri file document',
    inputSchema,
    shouldDefer: true,
    isEnabled: () => hasResources(source),
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    description: () => 'Read a resource of a connected MCP server',
    prompt: () => promptText.trim(),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),
    async call(input, ctx) {
      const known = source.servers().map((s) => s.name);
      if (!known.includes(input.server)) {
        throw new ToolInputError(
          `There is no MCP server named "${input.server}".${known.length ? ` Servers: ${known.join(', ')}.` : ''}`,
        );
      }
      try {
        const blocks = await source.readResourceContent(input.server, input.uri, ctx.abortController.signal);
        return { data: { server: input.server, uri: input.uri, blocks } };
      } catch (err) {
        if (ctx.abortController.signal.aborted) throw err;
        throw new ToolInputError(
          `Reading ${input.uri} from the MCP server ${input.server} failed: ${messageOf(err)}`,
        );
      }
    },
    mapToolResultToToolResultBlockParam(out: ReadOutput, id) {
      const allText = out.blocks.every((b) => b.type === 'text');
      return {
        type: 'tool_result',
        tool_use_id: id,
        content: allText
          ? out.blocks.map((b) => (b as Anthropic.TextBlockParam).text).join('\n')
          : out.blocks,
      };
    },
    renderToolUseMessage: (input) => ({
      title: 'ReadMcpResource',
      subtitle: `${input.server ?? ''} ${input.uri ?? ''}`.trim(),
      body: { kind: 'none' },
    }),
    renderToolResultMessage: (out: ReadOutput) => ({
      kind: 'text',
      text: out.blocks.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n'),
    }),
    toAutoClassifierInput: (input) => `${input.server} ${input.uri}`,
  });
}
