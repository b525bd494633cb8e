/**
 * Cache share of input tokens over a scripted 30-prompt session on the mock API (its prompt-cache model:
 * breakpoints, 20-block lookback, 1,024-token minimum, 5-minute TTL on a fake clock with 45 s between
 * prompts), run twice in the same process through the real loop and SDK:
 * - tabcode: sorted pool, session schema cache, MCP tools deferred behind ToolSearch (announced in the
 *   messages), discovered tools loaded by tool_reference;
 * - naive: the same loop and breakpoints, but tools unsorted (built-ins, then servers in connection
 *   order), schemas re-serialized from the live tools every request, nothing deferred.
 * Events (the same for both): GitHub MCP (117 tools) connects before prompt 6, the filesystem server
 * (14 tools) before prompt 11, GitHub leaves before prompt 16, and the filesystem server re-lists its
 * tools before prompt 21 with one description changed (tools/list_changed). The model's moves are
 * scripted; tabcode's model calls ToolSearch before its first use of an MCP tool (one extra request).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockApi, startMockApi } from '../e2e/mock-api/server.ts';
import { createSchemaCache, type SchemaCache } from '../src/core/api-schema.ts';
import { TOOL_SEARCH_TOOL_NAME } from '../src/core/constants.ts';
import { createToolUseContext } from '../src/core/context.ts';
import { createDeferredToolsState } from '../src/core/deferred-tools.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { createAnthropicClient } from '../src/core/model/anthropic.ts';
import { query } from '../src/core/query.ts';
import { buildSystemPrompt } from '../src/core/system-prompt.ts';
import type { AnyTool, ToolInputJSONSchema } from '../src/core/tool.ts';
import { DEMO_PROJECT } from '../src/sandbox/demo-project.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { assembleToolPool, getTools } from '../src/tools/registry.ts';
import { type CatalogueEntry, loadGitHubMcp, requireData, toMcpTool } from './mcp-catalogue.ts';
import { table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'Cache share of input tokens, 30-prompt session, MCP servers come and go: tabcode vs naive client';

type Step = { tool: string; input: Record<string, unknown> }[];
interface Turn {
  prompt: string;
  steps: Step[];
  answer: string;
}

const gh = (tool: string) => `mcp__github__${tool}`;
const fs = (tool: string) => `mcp__filesystem__${tool}`;
const one = (tool: string, input: Record<string, unknown>): Step => [{ tool, input }];
const REPO = { owner: 'acme', repo: 'weather-notes' };

/** The session: 30 prompts, the model's tool calls, and its answers (the same for both clients). */
const TURNS: Turn[] = [
  {
    prompt: 'What is this project?',
    steps: [one('Read', { file_path: 'README.md' })],
    answer: 'A small weather report CLI.',
  },
  {
    prompt: 'Which source files are there?',
    steps: [one('Glob', { pattern: 'src/**/*.js' })],
    answer: 'index, report and stats.',
  },
  {
    prompt: 'How are the stats computed?',
    steps: [one('Read', { file_path: 'src/stats.js' })],
    answer: 'mean, min and max helpers.',
  },
  { prompt: 'Any TODOs left?', steps: [one('Grep', { pattern: 'TODO' })], answer: 'None found.' },
  {
    prompt: 'Show me the tests.',
    steps: [one('Bash', { command: 'ls test && cat test/stats.test.js' })],
    answer: 'One test file.',
  },
  {
    prompt: 'Are there open issues about the stats?',
    steps: [one(gh('list_issues'), { ...REPO, state: 'OPEN' })],
    answer: 'Issue #1: rounding.',
  },
  {
    prompt: 'Open the first one.',
    steps: [one(gh('issue_read'), { ...REPO, method: 'get', issue_number: 1 })],
    answer: 'It asks for a median.',
  },
  {
    prompt: 'Write a note about the fix plan.',
    steps: [one('Write', { file_path: 'NOTES.md', content: 'Plan: add a median to src/stats.js.\n' })],
    answer: 'Written to NOTES.md.',
  },
  {
    prompt: 'Comment on the issue.',
    steps: [one(gh('add_issue_comment'), { ...REPO, issue_number: 1, body: 'On it.' })],
    answer: 'Commented.',
  },
  { prompt: 'Thanks. Where do we stand?', steps: [], answer: 'Plan written, issue acknowledged.' },
  {
    prompt: 'Which folders can the filesystem server see?',
    steps: [one(fs('list_allowed_directories'), {})],
    answer: 'The project root.',
  },
  {
    prompt: 'List the data folder through it.',
    steps: [one(fs('list_directory'), { path: 'data' })],
    answer: 'cities.csv only.',
  },
  {
    prompt: 'How long is the CSV?',
    steps: [one('Bash', { command: 'wc -l data/cities.csv' })],
    answer: 'A dozen lines.',
  },
  {
    prompt: 'Where is the mean used?',
    steps: [one('Grep', { pattern: 'mean', output_mode: 'content' })],
    answer: 'In report.js.',
  },
  {
    prompt: 'Any pull requests open?',
    steps: [one(gh('list_pull_requests'), { ...REPO, state: 'open' })],
    answer: 'None.',
  },
  {
    prompt: 'Open a PR for the plan.',
    steps: [],
    answer: 'The GitHub server has disconnected; I cannot open a PR now.',
  },
  {
    prompt: 'Read the report module.',
    steps: [one('Read', { file_path: 'src/report.js' })],
    answer: 'It formats one line per city.',
  },
  {
    prompt: 'Show the project tree via the server.',
    steps: [one(fs('directory_tree'), { path: '.' })],
    answer: 'Four folders.',
  },
  {
    prompt: 'Find CSV files with it.',
    steps: [one(fs('search_files'), { path: '.', pattern: '*.csv' })],
    answer: 'data/cities.csv.',
  },
  {
    prompt: 'Add a line to the notes.',
    steps: [
      one('Read', { file_path: 'NOTES.md' }),
      one('Edit', {
        file_path: 'NOTES.md',
        old_string: 'Plan: add a median to src/stats.js.',
        new_string: 'Plan: add a median to src/stats.js.\nThen show it in the report.',
      }),
    ],
    answer: 'Added.',
  },
  {
    prompt: 'Check the allowed folders again.',
    steps: [one(fs('list_allowed_directories'), {})],
    answer: 'Now two roots.',
  },
  {
    prompt: 'Run the listing again.',
    steps: [one('Bash', { command: 'ls -la src' })],
    answer: 'Three files.',
  },
  {
    prompt: 'Read the entry point.',
    steps: [one('Read', { file_path: 'src/index.js' })],
    answer: 'It loads the CSV.',
  },
  {
    prompt: 'Read package.json and stats together.',
    steps: [
      [
        { tool: 'Read', input: { file_path: 'package.json' } },
        { tool: 'Read', input: { file_path: 'src/stats.js' } },
      ],
    ],
    answer: 'ESM package; stats are pure.',
  },
  {
    prompt: 'File info of the README via the server.',
    steps: [one(fs('get_file_info'), { path: 'README.md' })],
    answer: 'About 1 KB.',
  },
  {
    prompt: 'What does the module export?',
    steps: [one('Grep', { pattern: 'export', output_mode: 'content' })],
    answer: 'Three helpers and one formatter.',
  },
  { prompt: 'Would a median be hard?', steps: [], answer: 'No: sort and pick the middle.' },
  {
    prompt: 'List the markdown files.',
    steps: [one('Glob', { pattern: '**/*.md' })],
    answer: 'README.md and NOTES.md.',
  },
  {
    prompt: 'Head of the CSV through the server.',
    steps: [one(fs('read_text_file'), { path: 'data/cities.csv', head: 5 })],
    answer: 'city,date,celsius...',
  },
  { prompt: 'Wrap up, please.', steps: [], answer: 'Plan noted; median next. Done for today.' },
];

/** A deterministic, plausibly sized MCP result. */
function cannedResult(tool: string): string {
  const items = Array.from({ length: 4 }, (_, i) => ({
    id: i + 1,
    title: `${tool.replaceAll('_', ' ')} item ${i + 1}`,
    state: i % 2 ? 'closed' : 'open',
    updated_at: `2026-01-0${i + 1}T10:00:00Z`,
    summary: 'Temperatures are rounded before the mean is taken, which skews the report for small samples.',
  }));
  return JSON.stringify({ tool, total: items.length, items }, null, 1);
}

function loadFilesystem(dataDir: string): CatalogueEntry[] {
  const raw = JSON.parse(
    readFileSync(join(dataDir, 'reference-servers', 'server-filesystem.json'), 'utf8'),
  ) as {
    tools: { name: string; description?: string; inputSchema: ToolInputJSONSchema }[];
  };
  return raw.tools.map((t) => ({
    server: 'filesystem',
    tool: t.name,
    description: t.description ?? '',
    inputSchema: t.inputSchema,
  }));
}

interface Totals {
  requests: number;
  input: number;
  creation: number;
  read: number;
  lastToolsTokens: number;
}

/** A schema cache that never caches: every request re-serializes every schema from the live tools. */
const NO_CACHE: SchemaCache = { get: () => undefined, set: () => {} };

async function runSession(
  kind: 'tabcode' | 'naive',
  api: MockApi,
  dataDir: string,
  clock: { now: number },
): Promise<Totals> {
  api.reset();
  const sandbox = await createJustBashSandbox({ files: { ...DEMO_PROJECT } });
  const github = loadGitHubMcp(dataDir).map((e) => toMcpTool(e, { result: cannedResult(e.tool) }));
  let roots = 'the project root';
  const fsTools = () =>
    loadFilesystem(dataDir).map((e) =>
      toMcpTool(e, {
        result: cannedResult(e.tool),
        ...(e.tool === 'list_allowed_directories'
          ? { description: () => `${e.description} Allowed directories: ${roots}.` }
          : {}),
      }),
    );
  const servers = new Map<string, AnyTool[]>();
  const builtIns = getTools();
  const pool =
    kind === 'tabcode'
      ? () => assembleToolPool(builtIns, [...servers.values()].flat())
      : () => [...builtIns.filter((t) => t.name !== TOOL_SEARCH_TOOL_NAME), ...[...servers.values()].flat()];
  const schemaCache = kind === 'tabcode' ? createSchemaCache() : NO_CACHE;
  const deferral = createDeferredToolsState('native');
  const client = createAnthropicClient({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
  const systemPrompt = buildSystemPrompt({
    sandbox: sandbox.info(),
    root: sandbox.root,
    cwd: sandbox.root,
    date: '2026-01-01',
  });
  let context = createToolUseContext({ sandbox });
  let transcript: MessageParam[] = [];
  const loaded = new Set<string>();

  for (let i = 1; i <= TURNS.length; i++) {
    if (i === 6) servers.set('github', github);
    if (i === 11) servers.set('filesystem', fsTools());
    if (i === 16) servers.delete('github');
    if (i === 21) {
      roots = 'the project root, /tmp/shared';
      servers.set('filesystem', fsTools()); // tools/list_changed: new Tool objects, one description changed
    }
    const turn = TURNS[i - 1];
    const steps: Step[] = [];
    for (const step of turn.steps) {
      const unloaded = step
        .filter((c) => c.tool.startsWith('mcp__') && !loaded.has(c.tool))
        .map((c) => c.tool);
      if (kind === 'tabcode' && unloaded.length) {
        steps.push(one(TOOL_SEARCH_TOOL_NAME, { query: `select:${unloaded.join(',')}` }));
        for (const n of unloaded) loaded.add(n);
      }
      steps.push(step);
    }
    api.script([
      ...steps.map((s) => ({
        content: s.map((c) => ({ type: 'tool_use' as const, name: c.tool, input: c.input })),
      })),
      { content: [{ type: 'text' as const, text: turn.answer }] },
    ]);
    transcript = [...transcript, { role: 'user', content: [{ type: 'text', text: turn.prompt }] }];
    const gen = query({
      client,
      model: 'claude-sonnet-4-6',
      maxTokens: 1024,
      systemPrompt,
      messages: transcript,
      getTools: pool,
      context,
      schemaCache,
      deferredTools: deferral,
    });
    let step = await gen.next();
    while (!step.done) {
      const ev = step.value;
      if (ev.type === 'permission-request') ev.respond({ decision: 'allow-once' });
      if (ev.type === 'error') throw new Error(`${kind}, prompt ${i}: ${ev.error.message}`);
      if (ev.type === 'tool-result' && ev.isError)
        throw new Error(`${kind}, prompt ${i}: ${ev.name} failed: ${JSON.stringify(ev.block.content)}`);
      if (ev.type === 'request-start') clock.now += 5_000;
      step = await gen.next();
    }
    transcript = step.value.messages;
    context = { ...step.value.context, abortController: new AbortController() };
    if (api.pending() !== 0) throw new Error(`${kind}, prompt ${i}: ${api.pending()} scripted turns left`);
    clock.now += 45_000;
  }
  await sandbox.dispose();
  const ok = api.requests.filter((r) => r.status === 200);
  if (ok.length !== api.requests.length)
    throw new Error(`${kind}: a request was refused: ${api.requests.find((r) => r.status !== 200)?.error}`);
  const sum = (f: (u: NonNullable<(typeof ok)[number]['response']>['usage']) => number) =>
    ok.reduce((n, r) => n + (r.response ? f(r.response.usage) : 0), 0);
  const lastTools = JSON.stringify(ok.at(-1)?.body.tools ?? []);
  return {
    requests: ok.length,
    input: sum((u) => u.input_tokens),
    creation: sum((u) => u.cache_creation_input_tokens ?? 0),
    read: sum((u) => u.cache_read_input_tokens ?? 0),
    lastToolsTokens: Math.ceil(lastTools.length / 4),
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');
const share = (t: Totals) => t.read / (t.input + t.creation + t.read);
/** Input cost in base-input-token units: writes 1.25×, reads 0.1× (5-minute cache pricing). */
const cost = (t: Totals) => t.input + 1.25 * t.creation + 0.1 * t.read;

export async function run(ctx: BenchContext): Promise<string[]> {
  const dataDir = requireData(ctx.dataDir);
  const clock = { now: Date.UTC(2026, 0, 1, 9) };
  const api = await startMockApi({ clock: () => clock.now, checkToolVisibility: true });
  try {
    const tabcode = await runSession('tabcode', api, dataDir, clock);
    const naive = await runSession('naive', api, dataDir, clock);
    const row = (name: string, t: Totals) => [
      name,
      t.requests,
      fmt(t.input + t.creation + t.read),
      fmt(t.read),
      fmt(t.creation),
      fmt(t.input),
      `${(share(t) * 100).toFixed(1)} %`,
      fmt(Math.round(cost(t))),
    ];
    return [
      `${TURNS.length} prompts; GitHub MCP (117 tools) joins at prompt 6, filesystem (14) at 11, GitHub leaves at 16, filesystem re-lists at 21`,
      ...table(
        [
          'client',
          'requests',
          'input tokens',
          'cache read',
          'cache write',
          'uncached',
          'cache share',
          'cost (base tokens)',
        ],
        [row('tabcode', tabcode), row('naive', naive)],
      ),
      `tabcode cache share ${(share(tabcode) * 100).toFixed(1)} % (goal ≥ 97 %: ${share(tabcode) >= 0.97 ? 'yes' : 'NO'}) vs naive ${(share(naive) * 100).toFixed(1)} %; input cost ${(cost(naive) / cost(tabcode)).toFixed(2)}× lower with tabcode`,
    ];
  } finally {
    await api.close();
  }
}
