/**
 * Tools-block tokens of the first request with the whole bench catalogue connected (LiveMCPBench 527 +
 * GitHub MCP 117 tools, plus the built-ins): every schema sent (eager) vs MCP tools deferred behind
 * ToolSearch (names announced in a system-reminder). Tokens as the mock API counts them (⌈chars / 4⌉
 * per prompt block, deferred tools left out), through the real SDK's count_tokens call.
 */

import { estimateTokens, linearizePrompt } from '../e2e/mock-api/cache.ts';
import { startMockApi } from '../e2e/mock-api/server.ts';
import { createSchemaCache } from '../src/core/api-schema.ts';
import {
  deferredToolsReminder,
  partitionPool,
  withDeferredToolsAnnouncement,
} from '../src/core/deferred-tools.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { createAnthropicClient } from '../src/core/model/anthropic.ts';
import { buildRequestBody, type RequestBody } from '../src/core/request.ts';
import { buildSystemPrompt } from '../src/core/system-prompt.ts';
import type { AnyTool } from '../src/core/tool.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { assembleToolPool, getTools } from '../src/tools/registry.ts';
import { loadCatalogue, requireData, toMcpTool } from './mcp-catalogue.ts';
import { table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'First-request tools block, 644 MCP tools connected: eager schemas vs deferred behind ToolSearch';

const fmt = (n: number) => n.toLocaleString('en-US');

export async function run(ctx: BenchContext): Promise<string[]> {
  const entries = loadCatalogue(requireData(ctx.dataDir));
  const sandbox = await createJustBashSandbox({ files: {} });
  const system = buildSystemPrompt({
    sandbox: sandbox.info(),
    root: sandbox.root,
    cwd: sandbox.root,
    date: '2026-01-01',
  });
  const builtIns = getTools();
  const prompt: MessageParam[] = [
    { role: 'user', content: [{ type: 'text', text: 'Triage the open issues.' }] },
  ];

  const body = (pool: AnyTool[], messages: MessageParam[]): RequestBody =>
    buildRequestBody({
      model: 'claude-sonnet-4-6',
      maxTokens: 1024,
      systemPrompt: system,
      tools: pool,
      messages,
      schemaCache: createSchemaCache(),
    });
  // Eager: every MCP tool loaded (as a client without deferral sends them), built-ins without ToolSearch.
  const eagerPool = assembleToolPool(
    builtIns.filter((t) => t.name !== 'ToolSearch'),
    entries.map((e) => toMcpTool(e, { alwaysLoad: true })),
  );
  const deferredPool = assembleToolPool(
    builtIns,
    entries.map((e) => toMcpTool(e)),
  );
  const eager = body(eagerPool, prompt);
  const deferred = body(deferredPool, withDeferredToolsAnnouncement(prompt, deferredPool));

  const api = await startMockApi();
  try {
    const client = createAnthropicClient({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
    const measure = async (b: RequestBody) => {
      const { stream: _s, ...rest } = b;
      const counted = await client.messages.countTokens(rest as never);
      const blocks = linearizePrompt(b as never);
      const tools = blocks.filter((x) => x.section === 'tools').reduce((n, x) => n + x.tokens, 0);
      return {
        total: counted.input_tokens,
        tools,
        sent: b.tools?.length ?? 0,
        bytes: JSON.stringify(b).length,
      };
    };
    const e = await measure(eager);
    const d = await measure(deferred);
    const reminder = JSON.stringify((deferred.messages[0].content as { text: string }[]).at(-1));
    const announcement = estimateTokens(reminder);
    const ratio = d.tools / e.tools;
    const withAnnouncement = (d.tools + announcement) / e.tools;
    // The announcement itself: one full name per line (the form before grouping) vs grouped by server.
    const names = partitionPool(deferredPool)
      .deferred.map((t) => t.name)
      .sort();
    const perLine = [
      '<system-reminder>',
      'These deferred tools can be loaded with ToolSearch. Only their names are known: call ToolSearch (e.g. "select:<name>", or keywords) to load a tool before calling it.',
      ...names,
      '</system-reminder>',
    ].join('\n');
    const grouped = deferredToolsReminder(new Set(), names) ?? '';
    const bytes = (t: string) => new TextEncoder().encode(t).length;
    return [
      `announcement of ${names.length} deferred tools: one name per line ${fmt(bytes(perLine))} bytes (${fmt(estimateTokens(perLine))} tokens) → grouped by server ${fmt(bytes(grouped))} bytes (${fmt(estimateTokens(grouped))} tokens), ${((bytes(grouped) / bytes(perLine)) * 100).toFixed(1)} %`,
      `catalogue: ${entries.length} MCP tools + ${builtIns.length} built-ins; tokens = ⌈chars / 4⌉ per block (the mock's count_tokens)`,
      ...table(
        [
          'first request',
          'tools sent',
          'tools-block tokens',
          'name announcement',
          'input tokens (count_tokens)',
          'body bytes',
        ],
        [
          ['eager (all schemas)', e.sent, fmt(e.tools), '-', fmt(e.total), fmt(e.bytes)],
          ['deferred (ToolSearch)', d.sent, fmt(d.tools), fmt(announcement), fmt(d.total), fmt(d.bytes)],
        ],
      ),
      `deferred tools block = ${(ratio * 100).toFixed(2)} % of eager (goal ≤ 5 %: ${ratio <= 0.05 ? 'yes' : 'NO'}); with the name announcement in the messages: ${(withAnnouncement * 100).toFixed(2)} %; whole first request: ${((d.total / e.total) * 100).toFixed(2)} %`,
    ];
  } finally {
    await api.close();
    await sandbox.dispose();
  }
}
