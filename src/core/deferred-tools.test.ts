import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSchemaCache } from './api-schema.ts';
import { TOOL_SEARCH_TOOL_NAME } from './constants.ts';
import {
  announcedDeferredTools,
  announcementLines,
  createDeferredToolsState,
  DEFERRED_TOOLS_ADDED_HEADER,
  DEFERRED_TOOLS_HEADER,
  DEFERRED_TOOLS_REMOVED_HEADER,
  definitionResolver,
  describeToolSearchMode,
  discoveredToolNames,
  isDeferredTool,
  isToolReferenceRejection,
  partitionPool,
  referencesToPortable,
  toolReferenceBlock,
  withDeferredToolsAnnouncement,
} from './deferred-tools.ts';
import type { MessageParam } from './messages.ts';
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
const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const reminderOf = (m: MessageParam) => {
  const blocks = typeof m.content === 'string' ? [] : m.content;
  const last = blocks[blocks.length - 1];
  return last?.type === 'text' ? last.text : '';
};

describe('which tools are deferred', () => {
  it('defers MCP tools unless alwaysLoad, and shouldDefer built-ins; never ToolSearch', () => {
    expect(isDeferredTool(mcp('gh', 'create_issue'))).toBe(true);
    expect(isDeferredTool(mcp('gh', 'create_issue', { alwaysLoad: true }))).toBe(false);
    expect(isDeferredTool(tool('Notebook', { shouldDefer: true }))).toBe(true);
    expect(isDeferredTool(tool('Read'))).toBe(false);
    expect(isDeferredTool(tool(TOOL_SEARCH_TOOL_NAME, { shouldDefer: true }))).toBe(false);
  });

  it('defers nothing when ToolSearch is not in the pool (nothing could load them)', () => {
    const pool = [tool('Read'), mcp('gh', 'a')];
    expect(partitionPool(pool).deferred).toEqual([]);
    expect(partitionPool([search, ...pool]).deferred.map((t) => t.name)).toEqual(['mcp__gh__a']);
  });
});

describe('announcements in the transcript', () => {
  it('lists every deferred tool first, then only deltas as servers come and go', () => {
    const gh = [mcp('gh', 'create_issue'), mcp('gh', 'list_issues')];
    const fs = [mcp('fs', 'read_file')];
    let messages = withDeferredToolsAnnouncement([user('hi')], [search, tool('Read'), ...gh]);
    const first = reminderOf(messages[0]);
    expect(first).toBe(
      `<system-reminder>\n${DEFERRED_TOOLS_HEADER}\nmcp__gh__: create_issue, list_issues\n</system-reminder>`,
    );
    // Nothing changed: no new reminder, same array.
    const again = [...messages, { role: 'assistant', content: 'ok' } as MessageParam, user('next')];
    expect(withDeferredToolsAnnouncement(again, [search, ...gh])).toBe(again);

    // fs connects, gh leaves: one reminder with both deltas.
    messages = withDeferredToolsAnnouncement(again, [search, ...fs]);
    expect(reminderOf(messages[2])).toBe(
      `<system-reminder>\n${DEFERRED_TOOLS_ADDED_HEADER}\nmcp__fs__: read_file\n${DEFERRED_TOOLS_REMOVED_HEADER}\nmcp__gh__: create_issue, list_issues\n</system-reminder>`,
    );
    expect([...announcedDeferredTools(messages)]).toEqual(['mcp__fs__read_file']);
    // Earlier messages keep their bytes; the input was not mutated.
    expect(messages[0]).toBe(again[0]);
    expect(again[2]).toEqual(user('next'));
  });

  it('says nothing when no tool was ever deferred', () => {
    const messages = [user('hi')];
    expect(withDeferredToolsAnnouncement(messages, [search, tool('Read')])).toBe(messages);
  });
});

describe('discovery and portable results', () => {
  const refResult = (id: string, names: string[]): MessageParam => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: names.map(toolReferenceBlock) as never }],
  });
  const searchUse = (id: string): MessageParam => ({
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: TOOL_SEARCH_TOOL_NAME, input: { query: 'x' } }],
  });

  it('reads discovered tools from references and from portable ToolSearch results, in order', () => {
    const pool = [search, mcp('gh', 'a'), mcp('gh', 'b'), mcp('fs', 'c')];
    const state = createDeferredToolsState('portable');
    const resolve = definitionResolver(pool, createSchemaCache(), state);
    const portable = referencesToPortable(
      { type: 'tool_result', tool_use_id: 't2', content: [toolReferenceBlock('mcp__fs__c')] as never },
      resolve,
    );
    const text = String((portable.content as { text: string }[])[0].text);
    expect(text).toContain(
      '<functions>\n<function>{"description":"mcp__fs__c does things","name":"mcp__fs__c"',
    );
    const messages: MessageParam[] = [
      user('go'),
      searchUse('t1'),
      refResult('t1', ['mcp__gh__b', 'mcp__gh__a']),
      searchUse('t2'),
      { role: 'user', content: [portable] },
    ];
    expect(discoveredToolNames(messages)).toEqual(['mcp__gh__b', 'mcp__gh__a', 'mcp__fs__c']);
    // Portable text in a result of another tool does not count.
    const other: MessageParam[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: {} }] },
      { role: 'user', content: [{ ...portable, tool_use_id: 'b1' }] },
    ];
    expect(discoveredToolNames(other)).toEqual([]);
  });

  it('notes references it cannot resolve instead of dropping them silently', () => {
    const state = createDeferredToolsState();
    const out = referencesToPortable(
      { type: 'tool_result', tool_use_id: 't', content: [toolReferenceBlock('mcp__gone__x')] as never },
      definitionResolver([search], createSchemaCache(), state),
    );
    expect(JSON.stringify(out.content)).toContain('No longer available: mcp__gone__x');
  });

  it('recognizes an endpoint rejecting tool_reference or defer_loading', () => {
    const err = (status: number, message: string) => Object.assign(new Error(message), { status });
    expect(isToolReferenceRejection(err(400, "Input tag 'tool_reference' found using 'type'"))).toBe(true);
    expect(
      isToolReferenceRejection(err(400, 'tools.3.custom.defer_loading: Extra inputs are not permitted')),
    ).toBe(true);
    expect(isToolReferenceRejection(err(400, 'max_tokens: Field required'))).toBe(false);
    expect(isToolReferenceRejection(err(500, 'tool_reference'))).toBe(false);
  });
});

describe('the mode, in words for the Usage panel', () => {
  it('says native or portable and why, including the endpoint error that switched it', () => {
    expect(describeToolSearchMode(createDeferredToolsState('auto'))).toEqual({
      mode: 'native',
      why: 'The endpoint takes tool_reference blocks and defer_loading (beta advanced-tool-use-2025-11-20); it falls back to portable if it ever refuses them.',
    });
    const switched = {
      ...createDeferredToolsState('auto'),
      mode: 'portable' as const,
      switchedBecause: '400 tool_reference unknown',
    };
    expect(describeToolSearchMode(switched)).toEqual({
      mode: 'portable',
      why: 'The endpoint refused tool search (400 tool_reference unknown), so loaded tools are sent as full schemas.',
    });
    expect(describeToolSearchMode(createDeferredToolsState('portable')).why).toMatch(/^Set to portable/);
  });

  it('a gateway refusing the beta header also counts as a tool-search rejection', () => {
    const err = {
      status: 400,
      message: '400 Unexpected value(s) `advanced-tool-use-2025-11-20` for the `anthropic-beta` header',
    };
    expect(isToolReferenceRejection(err)).toBe(true);
    expect(isToolReferenceRejection({ status: 400, message: 'max_tokens: Field required' })).toBe(false);
  });
});

describe('the announcement form', () => {
  it('groups MCP tools by server, keeps other deferred tools one per line, and reads both forms back', () => {
    const names = ['Notebook', 'mcp__a-b__x', 'mcp__a-b__y_z', 'mcp__gh__create_issue', 'mcp__my__srv__tool'];
    expect(announcementLines(names)).toEqual([
      'Notebook',
      'mcp__a-b__: x, y_z',
      'mcp__gh__: create_issue',
      'mcp__my__: srv__tool',
    ]);
    const pool = [
      search,
      ...names.map((n) =>
        n.startsWith('mcp__') ? tool(n, { isMcp: true }) : tool(n, { shouldDefer: true }),
      ),
    ];
    const messages = withDeferredToolsAnnouncement([user('hi')], pool);
    expect([...announcedDeferredTools(messages)].sort()).toEqual([...names].sort());
    // A transcript from before the grouping (one full name per line) still reads back, and its deltas apply.
    const old: MessageParam = user(
      '<system-reminder>\nThese deferred tools can be loaded with ToolSearch. Only their names are known: call ToolSearch (e.g. "select:<name>", or keywords) to load a tool before calling it.\nmcp__gh__create_issue\nmcp__gh__list_issues\n</system-reminder>',
    );
    expect([...announcedDeferredTools([old])]).toEqual(['mcp__gh__create_issue', 'mcp__gh__list_issues']);
    const next = withDeferredToolsAnnouncement(
      [old, { role: 'assistant', content: 'ok' }, user('go')],
      [search, mcp('gh', 'create_issue')],
    );
    expect(reminderOf(next[2])).toBe(
      `<system-reminder>\n${DEFERRED_TOOLS_REMOVED_HEADER}\nmcp__gh__: list_issues\n</system-reminder>`,
    );
  });
});
