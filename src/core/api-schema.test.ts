import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSchemaCache,
  openPersistentSchemaCache,
  schemaCacheKey,
  schemaCacheRecordKey,
  toolToAPISchema,
} from './api-schema.ts';
import { buildRequestBody } from './request.ts';
import { createMemoryStore } from './storage.ts';
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

  it('puts breakpoints on the last tool, the system, the last message and the previous request end', () => {
    const cache = createSchemaCache();
    const build = (messages: Parameters<typeof buildRequestBody>[0]['messages']) =>
      buildRequestBody({
        model: 'm',
        maxTokens: 10,
        systemPrompt: 'sys',
        tools: [makeTool('A', () => 'a'), makeTool('B', () => 'b')],
        messages,
        schemaCache: cache,
      });
    // First request: tools, system, last message.
    const first = build([{ role: 'user', content: 'one' }]);
    expect(JSON.stringify(first).match(/cache_control/g)).toHaveLength(3);
    // Later: also the end of the previous request (the user message before the last assistant message).
    const body = build([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ]);
    const json = JSON.stringify(body);
    expect(json.match(/cache_control/g)).toHaveLength(4);
    expect(body.tools?.[1]).toHaveProperty('cache_control');
    expect(body.tools?.[0]).not.toHaveProperty('cache_control');
    expect(body.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(body.messages[0])).toContain('cache_control');
    expect(JSON.stringify(body.messages[1])).not.toContain('cache_control');
    expect(JSON.stringify(body.messages[2])).toContain('cache_control');
  });
});

describe('the persisted schema cache', () => {
  it('keeps the tools bytes across a reload even when a description changed in between', async () => {
    const store = createMemoryStore();
    let version = 1;
    const a = makeTool('Alpha', () => `Alpha tool, version ${version}`);
    const first = await openPersistentSchemaCache(store, 'session-1');
    const before = JSON.stringify(toolToAPISchema(a, first));
    await first.flush();
    version = 2;
    const reloaded = await openPersistentSchemaCache(store, 'session-1');
    expect(reloaded.size()).toBe(1);
    expect(JSON.stringify(toolToAPISchema(a, reloaded))).toBe(before);
    // Another session renders afresh.
    const other = await openPersistentSchemaCache(store, 'session-2');
    expect(JSON.stringify(toolToAPISchema(a, other))).toContain('version 2');
  });

  it('ignores records of another format version and entries that are not schemas', async () => {
    const store = createMemoryStore();
    const t = makeTool('Alpha', () => 'A');
    await store.set(schemaCacheRecordKey('s'), {
      [schemaCacheKey(t)]: { name: 'Alpha', description: 'stale', input_schema: t.inputJSONSchema },
      [schemaCacheKey(t).replace(/:v\d+$/, ':v0')]: { name: 'Alpha', description: 'old', input_schema: {} },
      junk: 42,
    });
    const cache = await openPersistentSchemaCache(store, 's');
    expect(cache.entries().map(([k]) => k)).toEqual([schemaCacheKey(t)]);
    await store.set(schemaCacheRecordKey('broken'), 'not an object');
    expect((await openPersistentSchemaCache(store, 'broken')).size()).toBe(0);
  });

  it('starts empty when the store fails, and never throws on writes', async () => {
    const failing = {
      ...createMemoryStore(),
      get: async () => {
        throw new Error('quota');
      },
      set: async () => {
        throw new Error('quota');
      },
    };
    const warn = console.warn;
    console.warn = () => {};
    try {
      const cache = await openPersistentSchemaCache(failing, 's');
      toolToAPISchema(
        makeTool('Alpha', () => 'A'),
        cache,
      );
      await expect(cache.flush()).resolves.toBeUndefined();
      expect(cache.size()).toBe(1);
    } finally {
      console.warn = warn;
    }
  });
});
