/**
 * ListMcpResources: the resources (and resource templates) of the session's connected MCP servers.
 * Deferred like MCP tools (loaded with ToolSearch), read-only, and offered only while some connected
 * server has resources.
 */
import { z } from 'zod';
import { type AnyTool, buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import {
  hasResources,
  type McpResourceEntry,
  type McpResourceSource,
} from '../shared/mcp-resource-source.ts';
import promptText from './prompt.md?raw';

/** Most resources one call lists. */
export const LIST_MCP_RESOURCES_MAX = 200;

const PROMPT = promptText.replaceAll('{{MAX_LISTED}}', String(LIST_MCP_RESOURCES_MAX)).trim();

const inputSchema = z.strictObject({
  server: z.string().optional().describe('Only the resources of this MCP server'),
});

interface ListOutput {
  entries: McpResourceEntry[];
  total: number;
  server?: string;
}

/** One line per resource, as the model reads it. */
export function resourceLine(r: McpResourceEntry): string {
  const parts = [`${r.server}: ${r.uri}`];
  if (r.template) parts.push('(template)');
  parts.push(`— ${r.title ?? r.name}`);
  if (r.mimeType) parts.push(`(${r.mimeType})`);
  if (r.description) parts.push(`: ${r.description.replace(/\s+/g, ' ').slice(0, 300)}`);
  return parts.join(' ');
}

export function createListMcpResourcesTool(source: McpResourceSource): AnyTool {
  return buildTool({
    name: 'ListMcpResources',
    searchHint: 'mcp resources list files documents data uri server',
    inputSchema,
    shouldDefer: true,
    isEnabled: () => hasResources(source),
    description: () => 'List the resources of the connected MCP servers',
    prompt: () => PROMPT,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),
    async call(input) {
      const known = source.servers().map((s) => s.name);
      if (input.server !== undefined && !known.includes(input.server)) {
        throw new ToolInputError(
          `There is no MCP server named "${input.server}".${known.length ? ` Servers: ${known.join(', ')}.` : ''}`,
        );
      }
      const all = source.resources(input.server);
      const data: ListOutput = {
        entries: all.slice(0, LIST_MCP_RESOURCES_MAX),
        total: all.length,
        ...(input.server !== undefined ? { server: input.server } : {}),
      };
      return { data };
    },
    mapToolResultToToolResultBlockParam(out: ListOutput, id) {
      if (out.total === 0) {
        return textResult(
          id,
          out.server
            ? `The MCP server ${out.server} lists no resources.`
            : 'No connected MCP server lists resources.',
        );
      }
      const lines = out.entries.map(resourceLine);
      if (out.total > out.entries.length) {
        lines.push(`… and ${out.total - out.entries.length} more: name a server to list only its resources.`);
      }
      return textResult(id, lines.join('\n'));
    },
    renderToolUseMessage: (input) => ({
      title: 'ListMcpResources',
      ...(input.server ? { subtitle: input.server } : {}),
      body: { kind: 'none' },
    }),
    renderToolResultMessage: (out: ListOutput) => ({
      kind: 'text',
      text: `${out.total} resource${out.total === 1 ? '' : 's'}`,
    }),
    toAutoClassifierInput: (input) => input.server ?? '',
  });
}
