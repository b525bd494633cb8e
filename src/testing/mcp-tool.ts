/**
 * A deferred MCP tool for ToolSearch tests: a name, a description and, optionally, parameter names; it
 * takes any input and returns nothing. What a connected server's tool looks like to the search.
 */
import { z } from 'zod';
import { type AnyTool, buildTool, textResult } from '../core/tool.ts';

export function fakeMcpTool(
  server: string,
  name: string,
  description: string,
  params: string[] = [],
): AnyTool {
  return buildTool({
    name: `mcp__${server}__${name}`,
    inputSchema: z.looseObject({}),
    inputJSONSchema: {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])),
    },
    description: () => description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: name },
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
  });
}
