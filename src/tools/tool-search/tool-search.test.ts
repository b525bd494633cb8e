import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_SEARCH_DEFAULT_MAX_RESULTS } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { type AnyTool, buildTool, textResult } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../read/read.ts';
import { parseKeywordQuery, rankTools } from './ranking.ts';
import { stem } from './stem.ts';
import { terms, words } from './tokenize.ts';
import { createToolSearchTool, searchTools, ToolSearchTool, toolSearchDoc } from './tool-search.ts';

function mcp(
  server: string,
  name: string,
  description: string,
  params: Record<string, string> = {},
  extra = {},
) {
  const shape = Object.fromEntries(Object.entries(params).map(([k, d]) => [k, z.string().describe(d)]));
  return buildTool({
    name: `mcp__${server}__${name}`,
    inputSchema: z.strictObject(shape),
    description: () => description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: name },
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
    ...extra,
  }) as AnyTool;
}

const CATALOGUE: AnyTool[] = [
  mcp('github', 'create_issue', 'Create a new issue in a GitHub repository', {
    owner: 'Owner',
    repo: 'Repo',
    title: 'Title',
  }),
  mcp('github', 'list_issues', 'List issues in a GitHub repository with filters', {
    owner: 'Owner',
    state: 'open or closed',
  }),
  mcp('github', 'get_file_contents', 'Get the contents of a file or directory', { path: 'Path to the file' }),
  mcp('github', 'search_code', 'Search code across repositories'),
  mcp('github', 'merge_pull_request', 'Merge a pull request'),
  mcp('github', 'add_issue_comment', 'Add a comment to an issue'),
  mcp('github', 'update_issue', 'Update an existing issue'),
  mcp('maps', 'geocode_address', 'Convert an address into geographic coordinates', {
    address: 'Street address',
  }),
  mcp('maps', 'reverse_geocode', 'Convert coordinates into an address', {
    lat: 'Latitude',
    lng: 'Longitude',
  }),
  mcp('slack', 'post_message', 'Send a message to a channel', {
    channel: 'Channel id',
    text: 'Message text',
  }),
  mcp('weather', 'forecast', 'Weather forecast for a city', { city: 'City name' }, { alwaysLoad: true }),
];
const POOL = [ReadTool, ToolSearchTool, ...CATALOGUE];

describe('ToolSearch definition', () => {
  it('matches the JSON schema snapshot (the prompt-cache key) and interpolates its prompt', async () => {
    await expect(JSON.stringify(ToolSearchTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/tool-search.schema.json',
    );
    const prompt = ToolSearchTool.prompt?.() ?? '';
    expect(prompt).not.toContain('{{');
    expect(prompt).toContain(`default ${TOOL_SEARCH_DEFAULT_MAX_RESULTS}`);
    expect(ToolSearchTool.isReadOnly()).toBe(true);
    expect(ToolSearchTool.isConcurrencySafe()).toBe(true);
    expect(ToolSearchTool.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('query forms', () => {
  it('select: loads exact names, and notes loaded or unknown ones', () => {
    expect(searchTools(POOL, 'select:mcp__github__create_issue, mcp__slack__post_message')).toEqual({
      matches: ['mcp__github__create_issue', 'mcp__slack__post_message'],
      notes: [],
      form: 'select',
    });
    expect(searchTools(POOL, 'select:Read,mcp__weather__forecast,mcp__nope__x').notes).toEqual([
      'Read is already loaded; call it directly.',
      'mcp__weather__forecast is already loaded; call it directly.',
      'No tool named mcp__nope__x.',
    ]);
  });

  it('a bare exact name loads that tool', () => {
    expect(searchTools(POOL, 'mcp__maps__reverse_geocode').matches).toEqual(['mcp__maps__reverse_geocode']);
  });

  it('an mcp__server prefix lists the server, capped by max_results', () => {
    expect(searchTools(POOL, 'mcp__maps').matches).toEqual([
      'mcp__maps__geocode_address',
      'mcp__maps__reverse_geocode',
    ]);
    const gh = searchTools(POOL, 'mcp__github', 3);
    expect(gh.matches).toEqual([
      'mcp__github__add_issue_comment',
      'mcp__github__create_issue',
      'mcp__github__get_file_contents',
    ]);
    expect(gh.notes).toEqual(['4 more tools match mcp__github; raise max_results or add keywords.']);
  });

  it('keywords rank name matches first; +term is required in the name; default 5 results', () => {
    expect(searchTools(POOL, 'create issue').matches[0]).toBe('mcp__github__create_issue');
    expect(searchTools(POOL, 'github issue').matches).toHaveLength(TOOL_SEARCH_DEFAULT_MAX_RESULTS);
    expect(searchTools(POOL, 'turn an address into coordinates').matches[0]).toBe(
      'mcp__maps__geocode_address',
    );
    expect(searchTools(POOL, '+slack message').matches).toEqual(['mcp__slack__post_message']);
    expect(searchTools(POOL, '+maps').matches).toEqual([
      'mcp__maps__geocode_address',
      'mcp__maps__reverse_geocode',
    ]);
    // Only deferred tools are searched: the always-loaded forecast tool is not "found" again.
    expect(searchTools(POOL, 'weather forecast city').matches).not.toContain('mcp__weather__forecast');
  });
});

describe('ToolSearch calls', () => {
  let sandbox: Sandbox;
  let ctx: ToolUseContext;
  beforeEach(async () => {
    sandbox = await createJustBashSandbox({ files: {} });
    ctx = createToolUseContext({ sandbox, options: { tools: POOL } });
  });
  afterEach(() => sandbox.dispose());

  it('answers with one tool_reference block per loaded tool', async () => {
    const out = await ToolSearchTool.call({ query: 'select:mcp__github__create_issue' }, ctx);
    expect(ToolSearchTool.mapToolResultToToolResultBlockParam(out.data, 'toolu_1')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
    });
    expect(out.data.totalDeferred).toBe(CATALOGUE.length - 1);
  });

  it('with no match says so, and names servers still connecting', async () => {
    const tool = createToolSearchTool({ connectingServers: () => ['jira', 'linear'] });
    const out = await tool.call({ query: 'kubernetes pod logs' }, ctx);
    const block = tool.mapToolResultToToolResultBlockParam(out.data, 'toolu_2');
    expect(block.content).toBe(
      'No deferred tools match "kubernetes pod logs" (10 deferred tools are available). Try other keywords, "select:<exact name>" for a name from the announcements, or "mcp__<server>" to list a server\'s tools.\nMCP servers still connecting: jira, linear. Their tools are not searchable yet; search again once they are announced.',
    );
    const empty = { ...ctx, options: { ...ctx.options, tools: [ReadTool, tool] } };
    const none = await tool.call({ query: 'anything' }, empty);
    expect(String(tool.mapToolResultToToolResultBlockParam(none.data, 'x').content)).toMatch(
      /^No deferred tools match "anything": none are available yet\./,
    );
  });
});

describe('ranking pieces', () => {
  it('splits names and stems words so forms of one word meet', () => {
    expect(words('getFileContents')).toEqual(['get', 'file', 'contents']);
    // Single letters (what "what's" leaves) are not words.
    expect(words("HTMLParser v2_beta-x what's")).toEqual(['html', 'parser', 'v2', 'beta', 'what']);
    expect(words('搜索关键词')).toEqual(['搜索', '索关', '关键', '键词']);
    for (const [a, b] of [
      ['files', 'file'],
      ['creating', 'create'],
      ['issues', 'issue'],
      ['queries', 'query'],
      ['geocoding', 'geocode'],
      ['generation', 'generate'],
    ]) {
      expect(stem(a)).toBe(stem(b));
    }
    expect(terms('Get the weather of a city')).toEqual(['get', 'weather', 'city']);
    expect(parseKeywordQuery('+github create  issue')).toEqual({
      required: ['github'],
      optional: ['create', 'issue'],
    });
  });

  it('ranks a tool named after the query above one that only mentions it in prose', () => {
    const docs = [
      { name: 'mcp__a__send_email', description: 'Send an email message to recipients', params: [] },
      {
        name: 'mcp__b__list_folders',
        description: 'List folders; use before you send email or read email or archive email',
        params: [{ name: 'email_account' }],
      },
    ].map((d) => ({ ...d, toolName: d.name.split('__')[2] }));
    expect(rankTools('send email', docs).map((r) => r.doc.name)).toEqual([
      'mcp__a__send_email',
      'mcp__b__list_folders',
    ]);
    expect(rankTools('the of and', docs)).toEqual([]);
  });

  it('indexes parameter names and descriptions', () => {
    const doc = toolSearchDoc(CATALOGUE[8]);
    expect(doc.params).toEqual([
      { name: 'lat', description: 'Latitude' },
      { name: 'lng', description: 'Longitude' },
    ]);
    expect(searchTools(POOL, 'latitude longitude').matches[0]).toBe('mcp__maps__reverse_geocode');
  });
});
