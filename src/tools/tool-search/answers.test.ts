/**
 * The exact tool_result the model receives from ToolSearch: notes beside tool_reference blocks, exact
 * `mcp__<server>__` prefixes, connecting and unknown servers, duplicates grouped; and the same answers
 * after the portable conversion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { referencesToPortable } from '../../core/deferred-tools.ts';
import { type AnyTool, buildTool, textResult } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../read/read.ts';
import { createToolSearchTool } from './tool-search.ts';

function mcp(
  server: string,
  name: string,
  description: string,
  schema: Record<string, unknown> = {},
): AnyTool {
  return buildTool({
    name: `mcp__${server}__${name}`,
    inputSchema: z.looseObject({}),
    inputJSONSchema: { type: 'object', properties: schema },
    description: () => description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: name },
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
  });
}

const pathParam = { path: { type: 'string', description: 'File path' } };
const TOOLS: AnyTool[] = [
  mcp('git', 'git_status', 'Show the working tree status'),
  mcp('git', 'git_log', 'Show the commit logs'),
  mcp('github', 'create_issue', 'Create a new issue in a GitHub repository'),
  mcp('github', 'list_issues', 'List issues in a GitHub repository'),
  mcp('filesystem', 'read_file', 'Read the complete contents of a file', pathParam),
  mcp('server-filesystem', 'read_file', 'Read the complete contents of a file', pathParam),
  mcp('server-filesystem', 'write_file', 'Create or overwrite a file', pathParam),
];

let sandbox: Sandbox;
let ctx: ToolUseContext;
let connecting: string[];
const tool = createToolSearchTool({ connectingServers: () => connecting, semantic: null });

beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: {} });
  ctx = createToolUseContext({ sandbox, options: { tools: [ReadTool, tool, ...TOOLS] } });
  connecting = [];
});
afterEach(() => sandbox.dispose());

async function answer(query: string, max_results?: number) {
  const out = await tool.call({ query, ...(max_results ? { max_results } : {}) }, ctx);
  return tool.mapToolResultToToolResultBlockParam(out.data, 'toolu_1');
}
const ref = (name: string) => ({ type: 'tool_reference', tool_name: name });

describe('notes travel with the references', () => {
  it('select: with an unknown and an already loaded name: references, then the notes as text', async () => {
    expect(await answer('select:mcp__github__create_issue,Read,mcp__github__close_issue')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        ref('mcp__github__create_issue'),
        {
          type: 'text',
          text: 'Read is already loaded; call it directly.\nNo tool named mcp__github__close_issue.',
        },
      ],
    });
  });

  it('a server listing past max_results says how many more match', async () => {
    expect(await answer('mcp__github', 1)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        ref('mcp__github__create_issue'),
        { type: 'text', text: '1 more tools match mcp__github; raise max_results or add keywords.' },
      ],
    });
  });

  it('the notes survive the portable conversion beside the schemas', async () => {
    const block = await answer('select:mcp__github__create_issue,nope');
    const portable = referencesToPortable(block, (name) =>
      name === 'mcp__github__create_issue'
        ? { name, description: 'Create a new issue in a GitHub repository', input_schema: { type: 'object' } }
        : undefined,
    );
    const texts = (portable.content as { type: string; text: string }[]).map((b) => b.text);
    expect(texts[0]).toMatch(
      /^Loaded 1 tool\. .*\n<functions>\n<function>.*"name":"mcp__github__create_issue"/s,
    );
    expect(texts[1]).toBe('No tool named nope.');
  });
});

describe('server prefixes', () => {
  it('mcp__git lists git, never github (the prefix is mcp__<server>__)', async () => {
    expect((await answer('mcp__git')).content).toEqual([
      ref('mcp__git__git_log'),
      ref('mcp__git__git_status'),
    ]);
    expect((await answer('mcp__git__')).content).toEqual([
      ref('mcp__git__git_log'),
      ref('mcp__git__git_status'),
    ]);
    expect((await answer('mcp__github__list')).content).toEqual([ref('mcp__github__list_issues')]);
  });

  it('a server still connecting is said so, with no keyword search instead', async () => {
    connecting = ['slack'];
    expect(await answer('mcp__slack')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content:
        'MCP server slack is still connecting: its tools are not listed yet. Search again once they are announced.',
    });
    expect((await answer('select:mcp__slack__post_message')).content).toBe(
      'No deferred tools match "select:mcp__slack__post_message" (7 deferred tools are available). Try other keywords, "select:<exact name>" for a name from the announcements, or "mcp__<server>" to list a server\'s tools.\nNo tool named mcp__slack__post_message yet: MCP server slack is still connecting. Search again once its tools are announced.',
    );
  });

  it('an unknown server is said so, naming the servers there are', async () => {
    connecting = ['jira'];
    expect((await answer('mcp__gitlab')).content).toBe(
      'No MCP server named gitlab. Servers with deferred tools: filesystem, git, github, server-filesystem. Still connecting: jira.',
    );
    expect((await answer('mcp__git__push')).content).toBe('No tool of MCP server git starts with push.');
  });
});

describe('duplicates', () => {
  it('the same tool from two servers takes one slot, and a note names the other copy', async () => {
    const block = await answer('read the contents of a file');
    expect(block.content).toEqual([
      ref('mcp__filesystem__read_file'),
      ref('mcp__server-filesystem__write_file'),
      {
        type: 'text',
        text: 'mcp__filesystem__read_file is also offered as mcp__server-filesystem__read_file (same tool and schema); loaded once, call mcp__filesystem__read_file.',
      },
    ]);
    // select: of both copies loads one.
    expect(
      (await answer('select:mcp__filesystem__read_file,mcp__server-filesystem__read_file')).content,
    ).toEqual([
      ref('mcp__filesystem__read_file'),
      {
        type: 'text',
        text: 'mcp__filesystem__read_file is also offered as mcp__server-filesystem__read_file (same tool and schema); loaded once, call mcp__filesystem__read_file.',
      },
    ]);
  });

  it('a keyword search while a server connects keeps its results and says which servers are missing', async () => {
    connecting = ['slack'];
    expect((await answer('github issue', 2)).content).toEqual([
      ref('mcp__github__create_issue'),
      ref('mcp__github__list_issues'),
      {
        type: 'text',
        text: 'MCP servers still connecting: slack. Their tools are not searchable yet; search again once they are announced.',
      },
    ]);
  });
});
