import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, textResult } from '../core/tool.ts';
import { assembleToolPool, blanketRuleMatches, getAllBaseTools, getTools } from './registry.ts';

const mcp = (server: string, tool: string) =>
  buildTool({
    name: `mcp__${server}__${tool}`,
    inputSchema: z.object({}),
    description: () => tool,
    mcpInfo: { serverName: server, toolName: tool },
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
  });

describe('blanket deny rules remove tools before the model sees them', () => {
  it('Tool, Tool(*), mcp__server, mcp__server__* and mcp__server__tool', () => {
    const names = (deny: string[]) => getTools(deny).map((t) => t.name);
    expect(names(['Bash'])).not.toContain('Bash');
    expect(names(['Bash(*)', 'Write()'])).not.toEqual(expect.arrayContaining(['Bash', 'Write']));
    expect(names(['Bash(rm:*)'])).toContain('Bash');
    expect(names(['bash'])).toContain('Bash');
    const mcpTools = [mcp('github', 'create_issue'), mcp('github', 'list_issues'), mcp('maps', 'geocode')];
    const pool = (deny: string[]) =>
      assembleToolPool(getTools(deny), getTools(deny, mcpTools)).map((t) => t.name);
    expect(pool(['mcp__github'])).not.toContain('mcp__github__list_issues');
    expect(pool(['mcp__github'])).toContain('mcp__maps__geocode');
    expect(pool(['mcp__github__*'])).not.toContain('mcp__github__create_issue');
    expect(pool(['mcp__github__create_issue'])).toContain('mcp__github__list_issues');
    expect(pool(['mcp__github__create_issue'])).not.toContain('mcp__github__create_issue');
    expect(blanketRuleMatches('Read', getAllBaseTools().find((t) => t.name === 'Read') as never)).toBe(true);
  });
});
