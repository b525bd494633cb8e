/**
 * The tool set's two figures (issue 11):
 * 1. The tools block of the first request, in tokens, with every built-in sent in full vs the rarely used
 *    ones (WebFetch, WebSearch, NotebookEdit, the plan-mode tools) deferred behind ToolSearch and only
 *    named in a reminder. Tokens as the mock API counts them: ⌈chars / 4⌉ per prompt block (its
 *    count_tokens, through the real SDK), the tools section summed from the same estimator.
 * 2. Three sub-agents started by one message, run the way the loop schedules them (Agent is
 *    concurrency-safe: together) vs the same three forced one after another (the same tool with
 *    isConcurrencySafe false), through the real loop, SDK and sandbox against the mock API, each
 *    sub-agent's two model turns streamed with a fixed per-event delay (the model's latency).
 */
import { estimateTokens, linearizePrompt } from '../e2e/mock-api/cache.ts';
import { type RecordedRequest, startMockApi, type TurnSpec } from '../e2e/mock-api/server.ts';
import { createSchemaCache } from '../src/core/api-schema.ts';
import { partitionPool, withDeferredToolsAnnouncement } from '../src/core/deferred-tools.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { createAnthropicClient } from '../src/core/model/anthropic.ts';
import { buildRequestBody, type RequestBody } from '../src/core/request.ts';
import { buildSystemPrompt } from '../src/core/system-prompt.ts';
import type { AnyTool } from '../src/core/tool.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { AgentTool } from '../src/tools/agent/agent.ts';
import { GrepTool } from '../src/tools/grep/grep.ts';
import { ReadTool } from '../src/tools/read/read.ts';
import { assembleToolPool, getTools } from '../src/tools/registry.ts';
import { firstUserText, runLoop, userMessage } from '../src/tools/testing/loop.ts';
import { ms, ratio, table, timeMedian } from './stats.ts';

export const title =
  'Tool set: first-request tools block with rarely used built-ins deferred; 3 sub-agents in parallel vs serial';

const fmt = (n: number) => n.toLocaleString('en-US');
/** Delay between the mock's SSE events for a sub-agent's turns (stands in for model latency). */
const SUBAGENT_CHUNK_DELAY_MS = 25;
const SUBAGENTS = 3;

async function toolsBlock(): Promise<string[]> {
  const sandbox = await createJustBashSandbox({ files: {} });
  const api = await startMockApi();
  try {
    const system = buildSystemPrompt({
      sandbox: sandbox.info(),
      root: sandbox.root,
      cwd: sandbox.root,
      date: '2026-01-01',
    });
    const prompt: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.' }] },
    ];
    const deferredPool = assembleToolPool(getTools(), []);
    // Before deferral: the same built-ins, each loaded with the first request.
    const eagerPool = deferredPool.map((t): AnyTool => ({ ...t, shouldDefer: false }));
    const body = (pool: AnyTool[], messages: MessageParam[]): RequestBody =>
      buildRequestBody({
        model: 'claude-sonnet-4-6',
        maxTokens: 1024,
        systemPrompt: system,
        tools: pool,
        messages,
        schemaCache: createSchemaCache(),
      });
    const eager = body(eagerPool, prompt);
    const deferred = body(deferredPool, withDeferredToolsAnnouncement(prompt, deferredPool));
    const client = createAnthropicClient({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
    const measure = async (b: RequestBody) => {
      const { stream: _s, ...rest } = b;
      const counted = await client.messages.countTokens(rest as never);
      const tools = linearizePrompt(b as never)
        .filter((x) => x.section === 'tools')
        .reduce((n, x) => n + x.tokens, 0);
      return { total: counted.input_tokens, tools, sent: b.tools?.length ?? 0 };
    };
    const e = await measure(eager);
    const d = await measure(deferred);
    const names = partitionPool(deferredPool).deferred.map((t) => t.name);
    const reminder = JSON.stringify((deferred.messages[0].content as { text: string }[]).at(-1));
    const announcement = estimateTokens(reminder);
    return [
      `deferred built-ins: ${names.join(', ')} (of ${deferredPool.length} built-ins in this build)`,
      ...table(
        [
          'first request',
          'tools sent',
          'tools-block tokens',
          'name announcement',
          'input tokens (count_tokens)',
        ],
        [
          ['every built-in loaded', e.sent, fmt(e.tools), '-', fmt(e.total)],
          ['rarely used deferred', d.sent, fmt(d.tools), fmt(announcement), fmt(d.total)],
        ],
      ),
      `tools block after deferral = ${((d.tools / e.tools) * 100).toFixed(1)} % of before (${fmt(e.tools - d.tools)} tokens fewer); with the announcement: ${(((d.tools + announcement) / e.tools) * 100).toFixed(1)} %`,
    ];
  } finally {
    await api.close();
    await sandbox.dispose();
  }
}

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? '').includes('# Sub-agent:');
const hasResults = (r: RecordedRequest) =>
  r.body.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));

/** Main: `count` Agent calls in one message, then a last word. Each sub-agent: a Grep, then its report. */
function turn(root: string, count: number) {
  return (r: RecordedRequest): TurnSpec => {
    if (isSub(r)) {
      const n = /task (\d)/.exec(firstUserText(r.body as never))?.[1] ?? '?';
      return hasResults(r)
        ? { chunkDelayMs: SUBAGENT_CHUNK_DELAY_MS, content: [{ type: 'text', text: `Task ${n}: found it.` }] }
        : {
            chunkDelayMs: SUBAGENT_CHUNK_DELAY_MS,
            content: [{ type: 'tool_use', name: 'Grep', input: { pattern: `needle${n}`, path: root } }],
          };
    }
    if (hasResults(r)) return { content: [{ type: 'text', text: 'All three reported.' }] };
    return {
      content: Array.from({ length: count }, (_, i) => ({
        type: 'tool_use' as const,
        id: `toolu_agent_${i}`,
        name: 'Agent',
        input: {
          description: `search ${i}`,
          prompt: `Do task ${i}: find needle${i}.`,
          subagent_type: 'Explore',
        },
      })),
    };
  };
}

async function subagents(): Promise<string[]> {
  const files: Record<string, string> = {};
  for (let i = 0; i < SUBAGENTS; i++) files[`src/f${i}.ts`] = `export const needle${i} = ${i};\n`;
  const sandbox = await createJustBashSandbox({ files });
  const api = await startMockApi();
  const serialAgent: AnyTool = { ...(AgentTool as AnyTool), isConcurrencySafe: () => false };
  try {
    const once = async (agent: AnyTool, count = SUBAGENTS) => {
      api.reset();
      api.script(Array.from({ length: 2 + 2 * count }, () => turn(sandbox.root, count)));
      const run = await runLoop({
        baseURL: api.url,
        sandbox,
        tools: [agent, GrepTool, ReadTool],
        messages: [userMessage('Search three things.')],
      });
      const subs = api.requests.filter(isSub).length;
      if (
        run.outcome.reason !== 'end_turn' ||
        subs !== 2 * count ||
        api.requests.some((r) => r.status !== 200)
      )
        throw new Error(`the run did not go as scripted: ${run.outcome.reason}, ${subs} sub-agent requests`);
    };
    const alone = await timeMedian(() => once(AgentTool as AnyTool, 1), 5);
    const parallel = await timeMedian(() => once(AgentTool as AnyTool), 5);
    const serial = await timeMedian(() => once(serialAgent), 5);
    return [
      `${SUBAGENTS} Explore sub-agents, each 2 streamed turns (${SUBAGENT_CHUNK_DELAY_MS} ms between SSE events) and a Grep; median of 5 runs`,
      ...table(
        ['run', 'wall time', 'vs parallel'],
        [
          ['1 sub-agent alone (reference)', ms(alone), ratio(alone, parallel)],
          ['3 in parallel (one message, as scheduled)', ms(parallel), '1.00×'],
          ['3 one after another (forced serial)', ms(serial), ratio(serial, parallel)],
        ],
      ),
      `serial / parallel wall time = ${ratio(serial, parallel)} (ideal ${SUBAGENTS}.00× when the model's latency dominates); 3 in parallel take ${ratio(parallel, alone)} the time of one`,
    ];
  } finally {
    await api.close();
    await sandbox.dispose();
  }
}

export async function run(): Promise<string[]> {
  return [...(await toolsBlock()), '', ...(await subagents())];
}
