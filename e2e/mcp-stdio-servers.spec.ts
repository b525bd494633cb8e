/**
 * The reference stdio servers from npm, server-filesystem and server-memory, each behind the
 * stdio-to-HTTP gateway this spec starts on loopback, used from the page in Chromium the way a user
 * would: the model finds their tools with ToolSearch, calls them after the permission prompt, and the
 * calls have their real effect on disk (a file written in the allowed folder, the memory file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { allowIfAsked, mcpRow, saveServersAndReload } from './mcp/page.ts';
import { type StdioGateway, startStdioGateway } from './mcp/stdio-gateway.ts';
import { type MockApi, startMockApi } from './mock-api/server.ts';
import { connect, openApp, sendPrompt, toolCard, waitIdle } from './support/app.ts';

/** The stdio entry point of a reference server package. */
function serverEntry(pkg: string): string {
  const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  return join(dirname(manifest), 'dist', 'index.js');
}

let api: MockApi;
let dir: string;
let files: StdioGateway;
let memory: StdioGateway;

test.beforeAll(async () => {
  api = await startMockApi();
  dir = mkdtempSync(join(tmpdir(), 'tabcode-mcp-stdio-'));
  writeFileSync(join(dir, 'notes.txt'), 'Buy oat milk.\n');
  files = await startStdioGateway({
    command: process.execPath,
    args: [serverEntry('@modelcontextprotocol/server-filesystem'), dir],
  });
  memory = await startStdioGateway({
    command: process.execPath,
    args: [serverEntry('@modelcontextprotocol/server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  });
});

test.afterAll(async () => {
  await Promise.all([api?.close(), files?.close(), memory?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.beforeEach(() => api.reset());

type Call = { id: string; name: string; input: Record<string, unknown> };

/** The model loads `tools` with ToolSearch, makes each call in its own turn, then says `done`. */
function script(tools: string[], calls: Call[], done: string) {
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_search',
          name: 'ToolSearch',
          input: { query: `select:${tools.join(',')}` },
        },
      ],
    },
    ...calls.map((c) => ({
      content: [{ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input }],
    })),
    { content: [{ type: 'text', text: done }] },
  ]);
}

test('server-filesystem behind the gateway: the model reads a file and writes one in the allowed folder', async ({
  page,
}) => {
  test.slow(); // a Node child process per server session, slow on a busy machine
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'fs', url: files.url }]);
  await expect(await mcpRow(page, 'fs')).toHaveAttribute('data-status', 'connected', { timeout: 30_000 });
  script(
    ['mcp__fs__read_text_file', 'mcp__fs__write_file'],
    [
      { id: 'toolu_read', name: 'mcp__fs__read_text_file', input: { path: join(dir, 'notes.txt') } },
      {
        id: 'toolu_write',
        name: 'mcp__fs__write_file',
        input: { path: join(dir, 'todo.txt'), content: 'oat milk\n' },
      },
    ],
    'Read the notes and wrote todo.txt.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Read my notes and write a todo file');
  await allowIfAsked(page, 'toolu_read');
  await expect(toolCard(page, 'toolu_read')).toContainText('Buy oat milk.', { timeout: 30_000 });
  await allowIfAsked(page, 'toolu_write');
  await expect(toolCard(page, 'toolu_write')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await waitIdle(page);
  // The real effect, on disk.
  expect(readFileSync(join(dir, 'todo.txt'), 'utf8')).toBe('oat milk\n');
  // The model got the file's text as the read's result.
  const sent = JSON.stringify(api.requests.map((r) => r.body.messages));
  expect(sent).toContain('Buy oat milk.');
});

test('server-memory behind the gateway: entities created in one call are read back in the next', async ({
  page,
}) => {
  test.slow();
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'memory', url: memory.url }]);
  await expect(await mcpRow(page, 'memory')).toHaveAttribute('data-status', 'connected', {
    timeout: 30_000,
  });
  script(
    ['mcp__memory__create_entities', 'mcp__memory__read_graph'],
    [
      {
        id: 'toolu_create',
        name: 'mcp__memory__create_entities',
        input: {
          entities: [{ name: 'Ada', entityType: 'person', observations: ['prefers tabs over spaces'] }],
        },
      },
      { id: 'toolu_graph', name: 'mcp__memory__read_graph', input: {} },
    ],
    'Remembered Ada.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Remember that Ada prefers tabs');
  await allowIfAsked(page, 'toolu_create');
  await expect(toolCard(page, 'toolu_create')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await allowIfAsked(page, 'toolu_graph');
  await expect(toolCard(page, 'toolu_graph')).toContainText('prefers tabs over spaces', { timeout: 30_000 });
  await waitIdle(page);
  expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('"name":"Ada"');
});
