/**
 * MCP tool definitions → Tools, and tools/call results → tool_result blocks. The raw shapes are what
 * real servers send (the quirky test server's catalogue among them); results are mapped by the same
 * functions the live tools use.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_TOOLS, INJECTION } from '../../e2e/mcp/hostile-server.ts';
import { GOOD_TOOLS, MALFORMED_TOOLS } from '../../e2e/mcp/quirky-server.ts';
import {
  MCP_MAX_DESCRIPTION_CHARS,
  MCP_MAX_SCHEMA_CHARS,
  MCP_MAX_TOOLS_PER_SERVER,
} from '../core/constants.ts';
import { blanketRuleMatches } from '../tools/registry.ts';
import { adaptMcpTools, inputSchemaProblem, type McpCallFn } from './adapter.ts';
import { API_TOOL_NAME } from './names.ts';
import { loadSchemaValidator, normalizeSchema } from './schema.ts';

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

describe('bad tool catalogues', () => {
  it("rewrites draft-04 schemas to 2020-12, skips invalid ones with the validator's words, and tools needing tasks", async () => {
    const validateSchema = await loadSchemaValidator();
    const { tools, skipped } = adaptMcpTools(HOSTILE_TOOLS, { server: 'h', call, validateSchema });
    expect(tools.map((t) => t.name)).toEqual(['mcp__h__Bash', 'mcp__h__draft4', 'mcp__h__html_desc']);
    const draft4 = tools.find((t) => t.name === 'mcp__h__draft4');
    expect(draft4?.inputJSONSchema).toEqual({
      type: 'object',
      properties: {
        n: { type: 'number', exclusiveMinimum: 0 },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      },
      required: ['n'],
    });
    expect(validateSchema(draft4?.inputJSONSchema ?? {})).toBeNull();
    expect(skipped).toEqual([
      {
        name: 'not_2020',
        reason: expect.stringMatching(
          /^Skipped: its inputSchema is not valid JSON Schema 2020-12 \(\/properties\/a\/type must be/,
        ),
      },
      {
        name: 'task_only',
        reason:
          'Skipped: it can only run as a task (the experimental MCP tasks feature), which tabcode does not support.',
      },
    ]);
  });

  it("a tool named like a built-in stays in its server's namespace; HTML and injections stay plain text", async () => {
    const { tools } = adaptMcpTools(HOSTILE_TOOLS, {
      server: 'h',
      call,
      validateSchema: await loadSchemaValidator(),
    });
    const bash = tools.find((t) => t.mcpInfo?.toolName === 'Bash');
    expect(bash?.name).toBe('mcp__h__Bash');
    // Rules for the built-in Bash do not reach it, and its own server's rules do.
    expect(blanketRuleMatches('Bash', bash as never)).toBe(false);
    expect(blanketRuleMatches('mcp__h', bash as never)).toBe(true);
    const html = tools.find((t) => t.name === 'mcp__h__html_desc');
    expect(html?.description()).toBe(INJECTION);
    expect(html?.renderToolUseMessage?.({})).toMatchObject({ title: 'h · html_desc' });
  });

  it('takes the first MCP_MAX_TOOLS_PER_SERVER tools of a huge list and says how many were left out', () => {
    const raw = Array.from({ length: MCP_MAX_TOOLS_PER_SERVER + 500 }, (_, i) => ({
      name: `t${i}`,
      inputSchema: { type: 'object' },
    }));
    const started = performance.now();
    const { tools, skipped } = adaptMcpTools(raw, { server: 'big', call });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(tools).toHaveLength(MCP_MAX_TOOLS_PER_SERVER);
    expect(skipped).toEqual([
      {
        name: `#${MCP_MAX_TOOLS_PER_SERVER}…#${MCP_MAX_TOOLS_PER_SERVER + 499}`,
        reason: `Skipped: the server listed ${MCP_MAX_TOOLS_PER_SERVER + 500} tools; tabcode takes the first ${MCP_MAX_TOOLS_PER_SERVER}.`,
      },
    ]);
  });
});

describe('normalizeSchema', () => {
  it('returns a 2020-12 schema as it is (no copy), and rewrites a nested draft-04 form without touching the input', () => {
    const modern = {
      type: 'object',
      properties: {
        n: { type: 'number', exclusiveMinimum: 0 },
        list: { type: 'array', items: { type: 'string' } },
      },
    };
    const before = structuredClone(modern);
    expect(normalizeSchema(modern)).toEqual({ schema: modern, notes: [] });
    expect((normalizeSchema(modern) as { schema: unknown }).schema).toBe(modern);
    const old = {
      type: 'object',
      properties: { deep: { anyOf: [{ type: 'number', minimum: 1, exclusiveMinimum: true }] } },
    };
    const oldBefore = structuredClone(old);
    expect(normalizeSchema(old)).toEqual({
      schema: { type: 'object', properties: { deep: { anyOf: [{ type: 'number', exclusiveMinimum: 1 }] } } },
      notes: ['boolean exclusiveMinimum (draft-04)'],
    });
    expect(modern).toEqual(before);
    expect(old).toEqual(oldBefore);
    const tooDeep: Record<string, unknown> = { type: 'object' };
    let node = tooDeep;
    for (let i = 0; i < 70; i++) {
      const inner: Record<string, unknown> = {};
      node.not = inner;
      node = inner;
    }
    expect(normalizeSchema(tooDeep)).toEqual({
      problem: 'its inputSchema is nested more than 64 levels deep',
    });
  });
});
