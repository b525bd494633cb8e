/**
 * In-page servers: the host page runs a real McpServer (the SDK's high-level server, zod-typed tools)
 * in the same process, reached through InMemoryTransport or a MessageChannel (MessagePortTransport).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolUseContext } from '../core/context.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { inPageServer } from './in-page.ts';
import { createMcpManager, type McpChange, type McpManager } from './manager.ts';

/** A host-page server: a counter and a notes list, with one tool added later. */
function makeHostServer() {
  const servers: McpServer[] = [];
  const notes: string[] = [];
  const create = () => {
    const server = new McpServer({ name: 'host-page', version: '2.0.0' });
    server.registerTool(
      'add_note',
      {
        description: 'Adds a note to the host page.',
        inputSchema: { text: z.string().min(1) },
        annotations: { destructiveHint: false },
      },
      async ({ text }) => {
        notes.push(text);
        return { content: [{ type: 'text', text: `noted (${notes.length})` }] };
      },
    );
    server.registerTool(
      'list_notes',
      {
        description: 'Lists notes.',
        annotations: { readOnlyHint: true },
        _meta: { 'anthropic/alwaysLoad': true },
      },
      async () => ({ content: [{ type: 'text', text: notes.join('\n') || '(none)' }] }),
    );
    servers.push(server);
    return server;
  };
  return { create, servers, notes };
}

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

describe.each(['memory', 'message-port'] as const)('in-page server over %s', (channel) => {
  it('connects, calls tools, follows list changes, and notices when the page closes it', async () => {
    const host = makeHostServer();
    manager = createMcpManager();
    const state = await manager.addServer(inPageServer('page', (t) => host.create().connect(t), { channel }));
    expect(state).toMatchObject({
      status: 'connected',
      transport: 'in-page',
      target: 'in-page',
      source: 'host',
      toolCount: 2,
      serverInfo: { name: 'host-page', version: '2.0.0' },
    });
    const tools = manager.tools();
    expect(tools.map((t) => t.name)).toEqual(['mcp__page__add_note', 'mcp__page__list_notes']);
    const [add, list] = tools;
    expect(add.inputJSONSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(list.alwaysLoad).toBe(true);
    expect(list.isReadOnly()).toBe(true);

    const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
    const r = await add.call({ text: 'buy milk' }, ctx);
    expect(add.mapToolResultToToolResultBlockParam(r.data, 't1').content).toBe('noted (1)');
    expect(host.notes).toEqual(['buy milk']);
    // The server validates: a bad input comes back as a tool error, not a crash.
    const bad = await add.call({ text: '' }, ctx);
    const badBlock = add.mapToolResultToToolResultBlockParam(bad.data, 't2');
    expect(badBlock.is_error).toBe(true);
    expect(String(badBlock.content)).toMatch(/Input validation error/i);

    // The page registers a tool later: tools/list_changed → refetch.
    const changed = new Promise<McpChange>((resolve) => {
      const off = manager?.onChange((c) => {
        if (c.toolsChanged) {
          off?.();
          resolve(c);
        }
      });
    });
    host.servers[0].registerTool('clear_notes', { description: 'Clears notes.' }, async () => {
      host.notes.length = 0;
      return { content: [{ type: 'text', text: 'cleared' }] };
    });
    expect((await changed).state?.toolCount).toBe(3);
    expect(manager.tools().map((t) => t.name)).toContain('mcp__page__clear_notes');

    // The page shuts its server down: the state says so; a reconnect is scheduled, and meanwhile the
    // tools stay on offer (a call would wait for the reconnect).
    const before = manager.tools();
    const lost = new Promise<McpChange>((resolve) => {
      manager?.onChange((c) => {
        if (c.state?.status === 'disconnected') resolve(c);
      });
    });
    await host.servers[0].close();
    const change = await lost;
    expect(change.state?.error).toBe('The server closed the connection.');
    expect(change.state?.reconnectAt).toBeGreaterThan(0);
    expect(change.toolsChanged).toBe(false);
    expect(manager.tools()).toBe(before);

    // Reconnect makes a fresh server through the factory.
    expect(await manager.reconnect('page')).toMatchObject({ status: 'connected', toolCount: 2 });
    expect(host.servers).toHaveLength(2);
  });
});

describe('in-page server failures', () => {
  it('a server that never answers initialize times out; a factory that throws fails with its reason', async () => {
    manager = createMcpManager();
    const silent = await manager.addServer(
      inPageServer('silent', () => {}, { channel: 'message-port', connectTimeoutMs: 200 }),
    );
    expect(silent).toMatchObject({
      status: 'failed',
      error: 'The in-page server did not answer initialize within 200 ms.',
    });
    const throwing = await manager.addServer({
      type: 'in-page',
      name: 'throwing',
      connect: () => {
        throw new Error('no worker support');
      },
    });
    expect(throwing).toMatchObject({
      status: 'failed',
      error: 'The in-page server could not start: no worker support',
    });
    expect(manager.tools()).toEqual([]);
  });
});
