/**
 * Hostile tools/call answers from a real MCP server on loopback (Streamable HTTP) and in the page:
 * malformed answers fail at once with a clear is_error (never a wait for the timeout), images over the
 * API's 5 MB base64 limit never go inline, and the spill budget counts images as well as text.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHostileResultServer } from '../../e2e/mcp/hostile-server.ts';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { API_IMAGE_MAX_BASE64_CHARS, MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS } from '../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import type { ToolResultBlockParam } from '../core/messages.ts';
import { createMemoryStore } from '../core/storage.ts';
import { createResultSpiller, createSpillStore } from '../core/tool-results.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { inPageServer } from './in-page.ts';
import { createMcpManager, type McpManager } from './manager.ts';
import { callMcpTool, resultText } from './test-tool-call.ts';

/** Long enough that a call waiting for it would fail the test's own timeout. */
const TOOL_TIMEOUT_MS = 60_000;

let ctx: ToolUseContext;
let host: McpHttpHost;
const managers: McpManager[] = [];

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  host = await startMcpHttpHost({ createServer: () => createHostileResultServer().createServer() });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(async () => {
  await host.close();
});

async function connected(kind: 'http' | 'in-page'): Promise<McpManager> {
  const m = createMcpManager({});
  managers.push(m);
  const config =
    kind === 'http'
      ? { type: 'http' as const, name: 'h', url: host.url, toolTimeoutMs: TOOL_TIMEOUT_MS }
      : inPageServer('h', (t) => createHostileResultServer().createServer().connect(t), {
          toolTimeoutMs: TOOL_TIMEOUT_MS,
        });
  const state = await m.addServer(config);
  expect(state.status).toBe('connected');
  return m;
}

const run = (m: McpManager, tool: string) => callMcpTool(m, ctx, `mcp__h__${tool}`);

const textOf = resultText;
const images = (b: ToolResultBlockParam) =>
  typeof b.content === 'string' ? [] : (b.content ?? []).filter((c) => c.type === 'image');

const MALFORMED: Array<[string, RegExp]> = [
  [
    'result_string',
    /The MCP server h sent a malformed answer to result_string: The server sent a malformed JSON-RPC answer: its result is a string, not an object\.$/,
  ],
  ['result_null', /malformed JSON-RPC answer: its result is null, not an object/],
  ['no_result', /malformed JSON-RPC answer: it has neither a result nor an error/],
  ['content_object', /malformed result .*content is an object, not a list/],
  ['unknown_item', /malformed result .*content\[1\] has type "hologram"/],
  ['wrong_field', /malformed result .*content\[0\] \(text\): its "text" is a number, not a string/],
  ['item_not_object', /malformed result .*content\[0\] is a string, not an object/],
];

describe.each(['http', 'in-page'] as const)('hostile tools/call answers (%s)', (kind) => {
  it.each(MALFORMED)('%s → is_error at once, and the server stays usable', async (tool, message) => {
    const m = await connected(kind);
    const block = await run(m, tool);
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toMatch(message);
    expect(textOf(await run(m, 'ok'))).toBe('all good');
  });

  it('an image over the API limit (6 MB of base64) is refused with a note, not sent inline', async () => {
    const m = await connected(kind);
    const block = await run(m, 'big_image');
    expect(images(block)).toEqual([]);
    expect(textOf(block)).toMatch(
      /Image \(image\/png, .*\) omitted: larger than the 5\.0 MB .*the API takes/,
    );
  });
});

describe('the spill budget counts images', () => {
  it('images past the budget become notes, the rest stay', async () => {
    const m = await connected('http');
    const block = await run(m, 'many_images');
    for (const img of images(block)) {
      expect(
        img.type === 'image' && img.source.type === 'base64' && img.source.data.length,
      ).toBeLessThanOrEqual(API_IMAGE_MAX_BASE64_CHARS);
    }
    // 2.5 MB here (the default is 10 MB) keeps the test fast: 4 MB of images, two fit.
    const budget = 2_500_000;
    const spiller = createResultSpiller({
      store: createSpillStore({ kv: createMemoryStore() }),
      messageMediaBudgetChars: budget,
    });
    const [out] = await spiller.enforceMessageBudget(
      [block],
      [{ type: 'tool_use', id: block.tool_use_id, name: 'mcp__h__many_images', input: {} }],
      m.tools(),
      ctx,
    );
    const kept = images(out).reduce(
      (n, c) => n + (c.type === 'image' && c.source.type === 'base64' ? c.source.data.length : 0),
      0,
    );
    expect(kept).toBeLessThanOrEqual(budget);
    expect(images(out)).toHaveLength(2);
    expect(textOf(out)).toMatch(
      /Image \(image\/png, 1\.0 MB\) left out: the tool results of this turn already carry/,
    );
    expect(MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS).toBeGreaterThanOrEqual(API_IMAGE_MAX_BASE64_CHARS);
  });
});
