import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSchemaCache, schemaCacheKey, toolToAPISchema } from './api-schema.ts';
import { buildRequestBody } from './request.ts';
import { buildTool, textResult } from './tool.ts';

function makeTool(name: string, describe: () => string, schema = z.strictObject({ path: z.string() })) {
  return buildTool({
    name,
    inputSchema: schema,
    description: describe,
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
  });
}

describe('toolToAPISchema and the session schema cache', () => {
  it('keeps the tools JSON of two requests byte-identical when a description changes mid-session', () => {
    let version = 1;
    const a = makeTool('Alpha', () => `Alpha tool, version ${version}`);
    const b = makeTool('Beta', () => 'Beta tool');
    const cache = createSchemaCache();
    const body = () =>
      buildRequestBody({
        model: 'm',
        maxTokens: 10,
        systemPrompt: 'sys',
        tools: [a, b],
        messages: [{ role: 'user', content: 'hi' }],
        schemaCache: cache,
      });
    const first = JSON.stringify(body().tools);
    version = 2;
    const second = JSON.stringify(body().tools);
    expect(second).toBe(first);
    expect(first).toContain('version 1');
    // A fresh session sees the new description.
    expect(JSON.stringify(toolToAPISchema(a, createSchemaCache()))).toContain('version 2');
  });

  it('never stores per-request fields in the cache', () => {
    const cache = createSchemaCache();
    const t = makeTool('Alpha', () => 'A');
    const withExtras = toolToAPISchema(t, cache, { cacheControl: { type: 'ephemeral' }, deferLoading: true });
    expect(withExtras).toMatchObject({ cache_control: { type: 'ephemeral' }, defer_loading: true });
    const plain = toolToAPISchema(t, cache);
    expect(plain).toEqual({ name: 'Alpha', description: 'A', input_schema: t.inputJSONSchema });
    expect(cache.entries()[0][1]).not.toHaveProperty('cache_control');
    expect(cache.entries()[0][1]).not.toHaveProperty('defer_loading');
  });

  it('keys by name and schema hash: a changed schema gets a new entry', () => {
    const t1 = makeTool('Alpha', () => 'A');
    const t2 = makeTool('Alpha', () => 'A', z.strictObject({ path: z.string(), extra: z.number() }));
    expect(schemaCacheKey(t1)).not.toBe(schemaCacheKey(t2));
    const cache = createSchemaCache();
    toolToAPISchema(t1, cache);
    toolToAPISchema(t2, cache);
    expect(cache.size()).toBe(2);
  });

  it('puts at most one breakpoint each on tools, system and the last message', () => {
    const cache = createSchemaCache();
    const body = buildRequestBody({
      model: 'm',
      maxTokens: 10,
      systemPrompt: 'sys',
      tools: [makeTool('A', () => 'a'), makeTool('B', () => 'b')],
      messages: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: [{ type: 'text', text: 'three' }] },
      ],
      schemaCache: cache,
    });
    const json = JSON.stringify(body);
    expect(json.match(/cache_control/g)).toHaveLength(3);
    expect(body.tools?.[1]).toHaveProperty('cache_control');
    expect(body.tools?.[0]).not.toHaveProperty('cache_control');
    expect(JSON.stringify(body.messages[2])).toContain('cache_control');
  });
});
