/**
 * Malformed messages the client cannot tie to a request (no id, an id that matches no request, not
 * JSON-RPC, not JSON), from a real MCP server on loopback over Streamable HTTP (JSON and event-stream
 * answers) and in the page: the call fails at once with a clear is_error, never at its 60 s timeout
 * (which would fail the test's own), and the next call on the same connection works.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { inPageServer } from './in-page.ts';
import { malformedDetail } from './malformed.ts';
import { createMcpManager, type McpManager } from './manager.ts';
import { callMcpTool, resultText } from './test-tool-call.ts';

/** Long enough that a call waiting for it would fail the test's own timeout. */
const TOOL_TIMEOUT_MS = 60_000;

/** What each tool's tools/call is answered with (the raw JSON text), and the is_error it must give. */
const CASES: Array<[string, string, RegExp]> = [
  [
    'no_id',
    '{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"lost"}]}}',
    /it is not a JSON-RPC 2\.0 message/,
  ],
  ['not_json', 'hello, not json', /it is not JSON \(/],
  ['not_jsonrpc', '{"hello":"world"}', /it is not a JSON-RPC 2\.0 message/],
  [
    'wrong_id',
    '{"jsonrpc":"2.0","id":424242,"result":{"content":[]}}',
    /an answer for request id 424242, which matches no request tabcode sent/,
  ],
  [
    'error_no_id',
    '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}',
    /an error with no request id \(-32700: Parse error\)/,
  ],
];
const RAW = new Map(CASES.map(([name, body]) => [name, body]));

function createServer(): McpServer {
  const server = new McpServer({ name: 'malformed', version: '1.0.0' });
  for (const name of ['ok', ...RAW.keys()]) {
    server.registerTool(name, { description: name }, async () => ({
      content: [{ type: 'text', text: name === 'ok' ? 'all good' : 'should not arrive' }],
    }));
  }
  return server;
}

let ctx: ToolUseContext;
const hosts: Record<'json' | 'sse', McpHttpHost | undefined> = { json: undefined, sse: undefined };
const managers: McpManager[] = [];

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  for (const answer of ['json', 'sse'] as const) {
    hosts[answer] = await startMcpHttpHost({
      createServer,
      rawAnswer: (body) => {
        const b = body as { method?: string; params?: { name?: string } } | undefined;
        const raw = b?.method === 'tools/call' ? RAW.get(String(b.params?.name)) : undefined;
        if (raw === undefined) return undefined;
        return answer === 'json'
          ? { status: 200, contentType: 'application/json', body: raw }
          : { status: 200, contentType: 'text/event-stream', body: `event: message\ndata: ${raw}\n\n` };
      },
    });
  }
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(async () => {
  await Promise.all(Object.values(hosts).map((h) => h?.close()));
});

async function connected(url: string): Promise<McpManager> {
  const m = createMcpManager({});
  managers.push(m);
  const state = await m.addServer({ type: 'http', name: 'm', url, toolTimeoutMs: TOOL_TIMEOUT_MS });
  expect(state.status).toBe('connected');
  return m;
}

const run = (m: McpManager, server: string, tool: string) => callMcpTool(m, ctx, `mcp__${server}__${tool}`);

const textOf = resultText;

describe.each(['json', 'sse'] as const)('malformed messages over Streamable HTTP (%s answers)', (answer) => {
  it.each(CASES)('%s → is_error at once, the next call works', async (tool, _raw, detail) => {
    const m = await connected(hosts[answer]?.url ?? '');
    const block = await run(m, 'm', tool);
    expect(block.is_error).toBe(true);
    const text = textOf(block);
    expect(text).toMatch(/^Error: The MCP server m sent a malformed message: /);
    expect(text).toMatch(detail);
    expect(text).toMatch(new RegExp(`The call to ${tool} was abandoned: it may or may not have run`));
    const ok = await run(m, 'm', 'ok');
    expect(ok.is_error).toBeFalsy();
    expect(textOf(ok)).toBe('all good');
    expect(m.servers()[0]?.status).toBe('connected');
  });
});

/** An in-page server whose answer to tools/call `no_id` loses its id on the way. */
function inPageDroppingIds() {
  return inPageServer(
    'p',
    async (transport: Transport) => {
      await createServer().connect(transport);
      const send = transport.send.bind(transport);
      const calls = new Map<unknown, string>();
      const onmessage = transport.onmessage;
      transport.onmessage = (message, extra) => {
        const msg = message as { id?: unknown; method?: string; params?: { name?: string } };
        if (msg.method === 'tools/call') calls.set(msg.id, String(msg.params?.name));
        onmessage?.(message, extra);
      };
      transport.send = (message, options) => {
        const msg = message as { id?: unknown; method?: string };
        if (!msg.method && calls.get(msg.id) === 'no_id') {
          const { id: _dropped, ...rest } = msg;
          return send(rest as never, options);
        }
        return send(message, options);
      };
    },
    { toolTimeoutMs: TOOL_TIMEOUT_MS },
  );
}

describe('malformed messages in the page', () => {
  it('an answer without its id → is_error at once, the next call works', async () => {
    const m = createMcpManager({});
    managers.push(m);
    expect((await m.addServer(inPageDroppingIds())).status).toBe('connected');
    const block = await run(m, 'p', 'no_id');
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(
      /^Error: The MCP server p sent a malformed message: it is neither a request, a notification nor an answer: \{"result"/,
    );
    expect(textOf(await run(m, 'p', 'ok'))).toBe('all good');
  });
});

describe('malformedDetail', () => {
  const late = 'Received a response for an unknown message ID: {"jsonrpc":"2.0","id":7,"result":{}}';

  it('a late answer to a request tabcode cancelled (or that timed out) is not malformed', () => {
    expect(malformedDetail(new Error(late), (id) => id === 7)).toBeNull();
    expect(malformedDetail(new Error(late), () => false)).toMatch(/request id 7, which matches no request/);
  });

  it('transport trouble that is not a message is not malformed', () => {
    for (const msg of [
      'SSE stream disconnected: TypeError: terminated',
      'Maximum reconnection attempts (2)',
    ]) {
      expect(malformedDetail(new Error(msg), () => false)).toBeNull();
    }
  });
});
