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

/**
 * A stdio server that breaks the contract: it answers the handshake and tools/list properly, then
 * writes a line of plain text instead of the tools/call result.
 */
const MALFORMED_SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'malformed', version: '1.0.0' } } });
  else if (m.method === 'tools/list')
    out({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'broken', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') process.stdout.write('this is not JSON-RPC\\n');
  else if (m.id !== undefined) out({ jsonrpc: '2.0', id: m.id, result: {} });
});
`;

describe('a stdio server that writes a malformed line', () => {
  it('the waiting call gets an error at once, not the client timeout; a second call on the same session too', async () => {
    const broken = await startStdioGateway({ command: process.execPath, args: ['-e', MALFORMED_SERVER] });
    const m = createMcpManager();
    try {
      const state = await m.addServer({ type: 'http', name: 'bad', url: broken.url });
      expect(state.status).toBe('connected');
      const tool = m.tools().find((t) => t.name === 'mcp__bad__broken');
      const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
      const call = () => tool?.call({}, { ...ctx, abortController: new AbortController() });
      // The manager's own timeout is minutes: a test that finishes at all shows the error came first.
      await expect(call()).rejects.toThrow(/not a JSON-RPC message/);
      await expect(call()).rejects.toThrow(/not a JSON-RPC message/);
    } finally {
      await m.dispose();
      await broken.close();
    }
  });
});
