/**
 * A page reload: two session instances with the same id over the same IndexedDB (fake-indexeddb) send
 * byte-identical tools and system, even though a tool's description() and the date changed in between,
 * so the first request after the reload reads the prompt cache. The real SDK talks to the mock API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createIdbStore } from '../core/storage.ts';
import { type AnyTool, buildTool, textResult } from '../core/tool.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createAgentSession } from './session.ts';

let api: MockApi;
let version = 1;

/** An always-loaded MCP-shaped tool whose description changes between the two pages. */
const pinned: AnyTool = buildTool({
  name: 'mcp__docs__search',
  inputSchema: z.looseObject({}),
  inputJSONSchema: { type: 'object', properties: { query: { type: 'string' } } },
  description: () => `Search the docs (server build ${version})`,
  isMcp: true,
  alwaysLoad: true,
  mcpInfo: { serverName: 'docs', toolName: 'search' },
  call: async () => ({ data: 'ok' }),
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  version = 1;
});

async function page(sessionId: string, day: string, prompt: string) {
  const session = await createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test' },
    sandbox: await createJustBashSandbox({ files: { 'a.txt': 'a\n' } }),
    mcp: null,
    mcpTools: [pinned],
    sessionId,
    storage: {
      session: createIdbStore('reload-test-session'),
      results: createIdbStore('reload-test-results'),
    },
    now: () => new Date(`${day}T12:00:00Z`),
  });
  api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
  await session.send(prompt);
  await session.dispose();
}

describe('a page reload', () => {
  it('keeps tools and system byte-identical for the same session, and the cache hits at once', async () => {
    await page('session-A', '2026-03-01', 'hello');
    version = 2;
    await page('session-A', '2026-03-02', 'hello again');
    const [before, after] = api.requests;
    expect(before.status).toBe(200);
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(before.body.tools));
    expect(JSON.stringify(after.body.system)).toBe(JSON.stringify(before.body.system));
    expect(JSON.stringify(before.body.tools)).toContain('server build 1');
    expect(JSON.stringify(before.body.system)).toContain('2026-03-01');
    expect(after.response?.usage.cache_read_input_tokens).toBeGreaterThan(1024);

    // Another session renders afresh: the new description and its own date.
    await page('session-B', '2026-03-02', 'hello');
    const other = api.requests[2];
    expect(JSON.stringify(other.body.tools)).toContain('server build 2');
    expect(JSON.stringify(other.body.system)).toContain('2026-03-02');
    expect(JSON.stringify(other.body.tools)).not.toBe(JSON.stringify(before.body.tools));
  });
});
