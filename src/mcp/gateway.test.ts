/**
 * A stdio-only MCP server behind the test stdio-to-HTTP gateway (e2e/mcp/stdio-gateway.ts):
 * server-everything in its stdio mode, one child process per session, through the real manager.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingEntry } from '../../e2e/mcp/everything.ts';
import { type StdioGateway, startStdioGateway } from '../../e2e/mcp/stdio-gateway.ts';
import { createToolUseContext } from '../core/context.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager } from './manager.ts';

let gateway: StdioGateway;

beforeAll(async () => {
  gateway = await startStdioGateway({ command: process.execPath, args: [everythingEntry(), 'stdio'] });
});
afterAll(async () => {
  await gateway?.close();
});

describe('stdio server behind the gateway', () => {
  it('connects, lists and calls tools of a stdio server over Streamable HTTP', async () => {
    const m = createMcpManager();
    try {
      const state = await m.addServer({ type: 'http', name: 'stdio', url: gateway.url });
      expect(state).toMatchObject({ status: 'connected', transport: 'streamable-http' });
      expect(state.serverInfo?.name).toMatch(/everything/);
      expect(gateway.started()).toBe(1);
      const echo = m.tools().find((t) => t.name === 'mcp__stdio__echo');
      const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
      const out = await echo?.call(
        { message: 'through stdio' },
        { ...ctx, abortController: new AbortController() },
      );
      expect(echo?.mapToolResultToToolResultBlockParam(out?.data, 't').content).toBe('Echo: through stdio');
    } finally {
      await m.dispose();
    }
    expect(gateway.host.sessionCount()).toBe(0);
  });
});
