/**
 * MCP tool definitions → Tools, and tools/call results → tool_result blocks. The raw shapes are what
 * real servers send (the quirky test server's catalogue among them); results are mapped by the same
 * functions the live tools use.
 */
import { describe, expect, it } from 'vitest';
import { GOOD_TOOLS, MALFORMED_TOOLS, TINY_PNG } from '../../e2e/mcp/quirky-server.ts';
import { MCP_MAX_DESCRIPTION_CHARS, MCP_MAX_SCHEMA_CHARS } from '../core/constants.ts';
import { adaptMcpTools, inputSchemaProblem, type McpCallFn } from './adapter.ts';
import { API_TOOL_NAME } from './names.ts';
import { mapCallResult, toToolResultBlock } from './results.ts';

const calls: Array<{ name: string; args: unknown }> = [];
const call: McpCallFn = async (name, args) => {
  calls.push({ name, args });
  return { content: [{ type: 'text', text: `${name} ran` }] };
};

describe('adaptMcpTools', () => {
  it('keeps good tools (sorted, API-safe names) and skips malformed ones with a reason each', () => {
    const { tools, skipped } = adaptMcpTools([...GOOD_TOOLS, ...MALFORMED_TOOLS], { server: 'quirky', call });
    expect(tools.map((t) => t.name)).toEqual([
      'mcp__quirky__broken',
      'mcp__quirky__dotted_name',
      'mcp__quirky__echo',
      'mcp__quirky__flaky',
      'mcp__quirky__huge',
      'mcp__quirky__media',
      'mcp__quirky__slow',
      'mcp__quirky__structured',
    ]);
    for (const t of tools) expect(t.name).toMatch(API_TOOL_NAME);
    expect(skipped).toEqual([
      { name: 'string_schema', reason: 'Skipped: its inputSchema must have type "object" (got "string").' },
      { name: 'no_schema', reason: 'Skipped: its inputSchema is missing.' },
      { name: 'bad_properties', reason: 'Skipped: its inputSchema.properties is not an object.' },
      { name: 'bad_property', reason: 'Skipped: its inputSchema.properties.a is not a schema (got 42).' },
      { name: 'bad_required', reason: 'Skipped: its inputSchema.required is not a list of property names.' },
      { name: '#13', reason: 'Skipped: it has no name.' },
      { name: 'echo', reason: 'Skipped: the server listed a tool of this name twice.' },
    ]);
  });

  it('gives the schema as-is, maps annotations and _meta, and parses any object', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
      $defs: { unused: { type: 'string' } },
    };
    const { tools } = adaptMcpTools(
      [
        {
          name: 'forecast',
          title: 'Weather forecast',
          description: 'Gets a forecast.',
          inputSchema: schema,
          annotations: { readOnlyHint: true },
          _meta: { 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'rain temperature' },
        },
        { name: 'drop_table', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
        { name: 'plain', inputSchema: { type: 'object' } },
      ],
      { server: 'w', call },
    );
    const [drop, forecast, plain] = tools;
    expect(forecast.name).toBe('mcp__w__forecast');
    expect(forecast.inputJSONSchema).toEqual(schema);
    expect(forecast.inputJSONSchema).not.toBe(schema); // a private copy: the server's object can change
    expect(forecast.isMcp).toBe(true);
    expect(forecast.mcpInfo).toEqual({ serverName: 'w', toolName: 'forecast' });
    expect(forecast.alwaysLoad).toBe(true);
    expect(forecast.searchHint).toBe('rain temperature');
    expect(forecast.isReadOnly()).toBe(true);
    expect(forecast.isConcurrencySafe()).toBe(true);
    expect(forecast.isDestructive()).toBe(false);
    expect(forecast.description()).toBe('Gets a forecast.');
    expect(forecast.userFacingName()).toBe('w · Weather forecast (MCP)');
    expect(forecast.maxResultSizeChars).toBe(50_000);
    expect(forecast.interruptBehavior()).toBe('abort');

    expect(drop.isDestructive()).toBe(true);
    expect(drop.isReadOnly()).toBe(false);
    expect(drop.isConcurrencySafe()).toBe(false);
    expect(plain.alwaysLoad).toBe(false);
    expect(plain.description()).toBe('plain (a tool of the MCP server w)');

    // Any object passes (the server validates); anything else does not.
    expect(forecast.inputSchema.safeParse({ city: 'Oslo', extra: [1] })).toEqual({
      success: true,
      data: { city: 'Oslo', extra: [1] },
    });
    expect(forecast.inputSchema.safeParse([]).success).toBe(false);
    expect(forecast.inputSchema.safeParse('Oslo').success).toBe(false);

    const perm = await forecast.checkPermissions({}, { mode: 'default', root: '/', cwd: '/' });
    expect(perm.behavior).toBe('passthrough');
  });

  it('cuts very long descriptions and skips oversized schemas', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) properties[`field_${i}`] = { type: 'string', description: 'a field' };
    const { tools, skipped } = adaptMcpTools(
      [
        { name: 'wordy', description: 'w'.repeat(10_000), inputSchema: { type: 'object' } },
        { name: 'giant', inputSchema: { type: 'object', properties } },
      ],
      { server: 's', call },
    );
    expect(tools).toHaveLength(1);
    expect(tools[0].description().length).toBeLessThan(MCP_MAX_DESCRIPTION_CHARS + 40);
    expect(tools[0].description()).toMatch(/\[description truncated\]$/);
    expect(skipped[0].name).toBe('giant');
    expect(skipped[0].reason).toContain(`the limit is ${MCP_MAX_SCHEMA_CHARS}`);
  });

  it('names colliding after normalization get distinct, stable names', () => {
    const raw = [
      { name: 'a.b', inputSchema: { type: 'object' } },
      { name: 'a_b', inputSchema: { type: 'object' } },
    ];
    const one = adaptMcpTools(raw, { server: 's', call }).tools.map((t) => t.name);
    const two = adaptMcpTools([...raw].reverse(), { server: 's', call }).tools.map((t) => t.name);
    expect(new Set(one).size).toBe(2);
    expect(one).toEqual(two);
    expect(one).toContain('mcp__s__a_b');
  });

  it('calls the server with the original tool name and the input', async () => {
    calls.length = 0;
    const [dotted] = adaptMcpTools([{ name: 'dotted.name', inputSchema: { type: 'object' } }], {
      server: 'q',
      call,
    }).tools;
    const ctx = { abortController: new AbortController() } as never;
    const result = await dotted.call({ x: 1 }, ctx);
    expect(calls).toEqual([{ name: 'dotted.name', args: { x: 1 } }]);
    expect(dotted.mapToolResultToToolResultBlockParam(result.data, 'toolu_1')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'dotted.name ran',
    });
  });
});

describe('inputSchemaProblem', () => {
  it('accepts object schemas and names what is wrong otherwise', () => {
    expect(inputSchemaProblem({ type: 'object' })).toBeNull();
    expect(inputSchemaProblem({ type: 'object', properties: { a: true } })).toBeNull();
    expect(inputSchemaProblem(null)).toMatch(/not an object/);
    expect(inputSchemaProblem([])).toMatch(/not an object/);
    expect(inputSchemaProblem({})).toMatch(/type "object" \(got nothing\)/);
    expect(inputSchemaProblem({ type: ['object', 'null'] })).toMatch(/type "object"/);
    expect(inputSchemaProblem({ type: 'object', required: [1] })).toMatch(/required/);
  });
});

describe('tool results', () => {
  it('maps text, images, resource links, embedded resources and audio', () => {
    const out = mapCallResult(
      {
        content: [
          { type: 'text', text: 'Here is everything:' },
          { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
          { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
          { type: 'resource_link', uri: 'file:///todo.md', name: 'todo.md', mimeType: 'text/markdown' },
          { type: 'resource', resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'memo body' } },
          { type: 'resource', resource: { uri: 'blob://1', mimeType: 'application/zip', blob: 'UEsDBA==' } },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          { type: 'hologram', depth: 3 },
          'not even an object',
        ],
      },
      'media',
    );
    expect(out.isError).toBe(false);
    expect(out.blocks[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: TINY_PNG },
    });
    const texts = out.blocks.map((b) => (b.type === 'text' ? b.text : '<image>'));
    expect(texts).toEqual([
      'Here is everything:',
      '<image>',
      '[Image of type image/svg+xml (11 B) omitted: the model takes PNG, JPEG, GIF or WebP]',
      '[Resource link: todo.md <file:///todo.md> (text/markdown)]',
      '[Resource memo://1 (text/plain)]\nmemo body',
      '[Binary resource blob://1 (application/zip, 4 B) omitted]',
      '[Audio (audio/wav, 4 B) omitted]',
      '[Content of type hologram]\n{"type":"hologram","depth":3}',
      '[Unreadable content item: "not even an object"]',
    ]);
    const block = toToolResultBlock(out, 'toolu_m');
    expect(Array.isArray(block.content)).toBe(true);
    expect(block.is_error).toBeUndefined();
  });

  it('isError → is_error; structuredContent or nothing → readable text', () => {
    const err = toToolResultBlock(
      mapCallResult({ content: [{ type: 'text', text: 'down' }], isError: true }, 'x'),
      't',
    );
    expect(err).toEqual({ type: 'tool_result', tool_use_id: 't', content: 'down', is_error: true });
    const structured = mapCallResult({ content: [], structuredContent: { temperature: 21 } }, 'x');
    expect(toToolResultBlock(structured, 't').content).toBe('{\n  "temperature": 21\n}');
    expect(structured.structuredContent).toEqual({ temperature: 21 });
    expect(toToolResultBlock(mapCallResult({}, 'weather (MCP server w)'), 't').content).toBe(
      'weather (MCP server w) completed with no content.',
    );
    expect(toToolResultBlock(mapCallResult(null, 'x'), 't').content).toBe('x completed with no content.');
  });
});
