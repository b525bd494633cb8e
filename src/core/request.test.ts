import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateMessagesRequest } from '../../e2e/mock-api/validate.ts';
import { createSchemaCache } from './api-schema.ts';
import { TOOL_SEARCH_TOOL_NAME } from './constants.ts';
import { createDeferredToolsState, type DeferredToolsState, toolReferenceBlock } from './deferred-tools.ts';
import type { MessageParam } from './messages.ts';
import { buildRequestBody } from './request.ts';
import { type AnyTool, buildTool, textResult } from './tool.ts';

function tool(name: string, extra: Partial<AnyTool> = {}): AnyTool {
  return buildTool({
    name,
    inputSchema: z.strictObject({ q: z.string() }),
    description: () => `${name} does things`,
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
    ...extra,
  });
}
const mcp = (server: string, name: string, extra: Partial<AnyTool> = {}) =>
  tool(`mcp__${server}__${name}`, { isMcp: true, mcpInfo: { serverName: server, toolName: name }, ...extra });
const search = tool(TOOL_SEARCH_TOOL_NAME);

/** A transcript where ToolSearch loaded `names`. */
function loaded(names: string[]): MessageParam[] {
  return [
    { role: 'user', content: 'find tools' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_s', name: TOOL_SEARCH_TOOL_NAME, input: {} }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_s', content: names.map(toolReferenceBlock) as never },
      ],
    },
  ];
}

function build(tools: AnyTool[], messages: MessageParam[], deferral?: DeferredToolsState) {
  return buildRequestBody({
    model: 'm',
    maxTokens: 10,
    systemPrompt: 'sys',
    tools,
    messages,
    schemaCache: createSchemaCache(),
    deferral,
  });
}

describe('request tools with deferred tools', () => {
  const pool = [
    tool('Read'),
    search,
    mcp('gh', 'create_issue'),
    mcp('gh', 'list_issues'),
    mcp('x', 'pinned', { alwaysLoad: true }),
  ];

  it('sends loaded tools only until ToolSearch discovers one; the cache breakpoint is on the last loaded tool', () => {
    const first = build(pool, [{ role: 'user', content: 'hi' }]);
    expect(first.tools?.map((t) => (t as { name: string }).name)).toEqual([
      'Read',
      TOOL_SEARCH_TOOL_NAME,
      'mcp__x__pinned',
    ]);
    expect(first.tools?.[2]).toHaveProperty('cache_control');
    expect(validateMessagesRequest(first)).toBeNull();
  });

  it('native: discovered tools follow with defer_loading and no cache_control; the API accepts it', () => {
    const body = build(pool, loaded(['mcp__gh__list_issues']), createDeferredToolsState('native'));
    expect(body.tools?.map((t) => (t as { name: string }).name)).toEqual([
      'Read',
      TOOL_SEARCH_TOOL_NAME,
      'mcp__x__pinned',
      'mcp__gh__list_issues',
    ]);
    const discovered = body.tools?.[3] as unknown as Record<string, unknown>;
    expect(discovered.defer_loading).toBe(true);
    expect(discovered.cache_control).toBeUndefined();
    expect(body.tools?.[2]).toHaveProperty('cache_control');
    expect(validateMessagesRequest(body)).toBeNull();
    // The undiscovered deferred tool is not sent at all.
    expect(body.tools?.some((t) => (t as { name: string }).name === 'mcp__gh__create_issue')).toBe(false);
  });

  it('portable: discovered tools are appended plainly, references become schemas as text', () => {
    const body = build(pool, loaded(['mcp__gh__list_issues']), createDeferredToolsState('portable'));
    const last = body.tools?.[3] as unknown as Record<string, unknown>;
    expect(last.name).toBe('mcp__gh__list_issues');
    expect(last.defer_loading).toBeUndefined();
    expect(last.cache_control).toEqual({ type: 'ephemeral' });
    expect(JSON.stringify(body.messages)).not.toContain('tool_reference');
    expect(JSON.stringify(body.messages[2])).toContain('<function>{\\"description\\"');
    expect(validateMessagesRequest(body, { toolReference: false })).toBeNull();
  });

  it('keeps a discovered tool defined after its server leaves; drops references it never defined', () => {
    const state = createDeferredToolsState('native');
    const messages = loaded(['mcp__gh__list_issues']);
    const before = build(pool, messages, state);
    const after = build([tool('Read'), search], messages, state);
    expect(JSON.stringify(after.tools?.at(-1))).toBe(JSON.stringify(before.tools?.at(-1)));
    expect(validateMessagesRequest(after)).toBeNull();
    // A fresh state (a reload while the server is away) cannot define it: the reference becomes a note.
    const lost = build([tool('Read'), search], messages, createDeferredToolsState('native'));
    expect(lost.tools?.map((t) => (t as { name: string }).name)).toEqual(['Read', TOOL_SEARCH_TOOL_NAME]);
    expect(JSON.stringify(lost.messages[2])).toContain(
      'mcp__gh__list_issues was loaded here; it is no longer available',
    );
    expect(validateMessagesRequest(lost)).toBeNull();
  });

  it('takes the 1-hour TTL on every breakpoint', () => {
    const body = buildRequestBody({
      model: 'm',
      maxTokens: 10,
      systemPrompt: 'sys',
      tools: pool,
      messages: loaded(['mcp__gh__list_issues']),
      schemaCache: createSchemaCache(),
      cacheTtl: '1h',
    });
    const json = JSON.stringify(body);
    expect(json.match(/"cache_control"/g)).toHaveLength(4);
    expect(json.match(/"ttl":"1h"/g)).toHaveLength(4);
    expect(validateMessagesRequest(body)).toBeNull();
  });
});
