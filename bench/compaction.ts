/**
 * A scripted 200-prompt session with large tool results (every prompt Reads a 14k-character file, then
 * the model answers), through the real loop and SDK against the mock Messages API (its prompt-cache
 * model on a fake clock, 20 s between prompts, and a 200k-token context window that answers "prompt is
 * too long" like the API), run three ways in the same process:
 * - tabcode: old tool results cleared first, then the conversation summarized, before a request that
 *   would pass 85 % of the window;
 * - compaction only: the same, with clearing turned off (the conversation is summarized each time);
 * - none: no context management, against the same 200k window (it hits the window and every later
 *   request is refused).
 * Figures: prompts completed, peak context (the largest request's input tokens), total input tokens,
 * the share of them read from the cache, clearings and summaries.
 */
import { type MockApi, type RecordedRequest, startMockApi, type TurnSpec } from '../e2e/mock-api/server.ts';
import { createSchemaCache } from '../src/core/api-schema.ts';
import { createContextTracker } from '../src/core/compaction/estimate.ts';
import { DEFAULT_AUTO_COMPACT_RATIO } from '../src/core/constants.ts';
import { createToolUseContext } from '../src/core/context.ts';
import { createDeferredToolsState } from '../src/core/deferred-tools.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { createAnthropicClient } from '../src/core/model/anthropic.ts';
import { query } from '../src/core/query.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { BashTool } from '../src/tools/bash/bash.ts';
import { GlobTool } from '../src/tools/glob/glob.ts';
import { GrepTool } from '../src/tools/grep/grep.ts';
import { ReadTool } from '../src/tools/read/read.ts';
import { table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'Context over a 200-prompt session with large tool results: clearing and compaction vs none (200k window)';

const PROMPTS = 200;
const WINDOW = 200_000;
const FILES = 20;
/** 200 lines of 60 characters: Read returns all of it (~14k characters with line numbers). */
const FILE_TEXT = Array.from(
  { length: 200 },
  (_, i) => `row ${String(i).padStart(3, '0')} ${'·'.repeat(52)}`,
).join('\n');
const TOOLS = [BashTool, GlobTool, GrepTool, ReadTool];

interface Outcome {
  label: string;
  completed: number;
  /** The prompt whose request the API refused as too long, if any. */
  hitAt?: number;
  peak: number;
  totalInput: number;
  cacheRead: number;
  clearings: number;
  summaries: number;
  ms: number;
}

/** What the scripted model does: Read a file for a prompt, answer after the result, summarize when asked. */
function modelTurn(req: RecordedRequest): TurnSpec {
  const last = req.body.messages.at(-1);
  const text = JSON.stringify(last ?? '');
  if (text.includes('about to be compacted')) {
    return {
      content: [
        {
          type: 'text',
          text: '<summary>1. Task: read the data files one by one and report each. 3. Files: data/f*.txt read. 6. Next step: the next file.</summary>',
        },
      ],
    };
  }
  if (text.includes('"tool_result"'))
    return { content: [{ type: 'text', text: `Read it. ${'The rows look fine. '.repeat(8)}` }] };
  const n = Number(/file (\d+)/.exec(text)?.[1] ?? 0);
  return { content: [{ type: 'tool_use', name: 'Read', input: { file_path: `data/f${n % FILES}.txt` } }] };
}

async function session(
  label: string,
  api: MockApi,
  clock: { now: number },
  managed: 'clear-and-compact' | 'compact-only' | 'none',
): Promise<Outcome> {
  api.reset();
  api.script(Array.from({ length: PROMPTS * 3 + 50 }, () => modelTurn));
  const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`data/f${i}.txt`, FILE_TEXT]));
  const sandbox = await createJustBashSandbox({ files });
  let context = createToolUseContext({ sandbox });
  const client = createAnthropicClient({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
  const schemaCache = createSchemaCache();
  const deferredTools = createDeferredToolsState();
  const tracker = createContextTracker();
  const out: Outcome = {
    label,
    completed: 0,
    peak: 0,
    totalInput: 0,
    cacheRead: 0,
    clearings: 0,
    summaries: 0,
    ms: 0,
  };
  let transcript: MessageParam[] = [];
  const started = performance.now();
  for (let p = 1; p <= PROMPTS; p++) {
    clock.now += 20_000;
    const gen = query({
      client,
      model: 'claude-sonnet-4-6',
      maxTokens: 4096,
      systemPrompt: 'You are a coding agent in a browser tab.',
      messages: [
        ...transcript,
        { role: 'user', content: [{ type: 'text', text: `Read data file ${p} and report.` }] },
      ],
      tools: TOOLS,
      context,
      schemaCache,
      deferredTools,
      ...(managed === 'none'
        ? {}
        : {
            contextSettings: {
              contextWindow: WINDOW,
              autoCompactRatio: DEFAULT_AUTO_COMPACT_RATIO,
              clearToolResults: managed === 'clear-and-compact',
            },
            contextTracker: tracker,
          }),
    });
    let step = await gen.next();
    let failed = false;
    while (!step.done) {
      const ev = step.value;
      if (ev.type === 'context-cleared') out.clearings++;
      if (ev.type === 'compaction-end') out.summaries++;
      if (ev.type === 'error') failed = true;
      step = await gen.next();
    }
    transcript = step.value.messages;
    context = { ...step.value.context, abortController: new AbortController() };
    if (failed) {
      out.hitAt = p;
      break;
    }
    out.completed = p;
  }
  out.ms = performance.now() - started;
  for (const r of api.requests) {
    const u = r.response?.usage;
    if (!u) continue;
    const input = u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    out.peak = Math.max(out.peak, input);
    out.totalInput += input;
    out.cacheRead += u.cache_read_input_tokens ?? 0;
  }
  await sandbox.dispose();
  return out;
}

const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
const M = (n: number) => `${(n / 1_000_000).toFixed(2)}M`;

export async function run(_ctx: BenchContext): Promise<string[]> {
  const clock = { now: Date.UTC(2026, 0, 1, 9) };
  const api = await startMockApi({ clock: () => clock.now, contextWindow: WINDOW });
  try {
    const both = await session('tabcode: clear, then compact', api, clock, 'clear-and-compact');
    const compactOnly = await session('compaction only (no clearing)', api, clock, 'compact-only');
    const none = await session('none', api, clock, 'none');
    const runs = [both, compactOnly, none];
    const rows = runs.map((o) => [
      o.label,
      o.hitAt ? `${o.completed} (refused at ${o.hitAt})` : String(o.completed),
      k(o.peak),
      M(o.totalInput),
      o.totalInput ? `${((o.cacheRead / o.totalInput) * 100).toFixed(1)} %` : '—',
      `${o.clearings} / ${o.summaries}`,
      `${(o.ms / 1000).toFixed(1)} s`,
    ]);
    const lines = table(
      [
        'session',
        'prompts done',
        'peak context',
        'input tokens',
        'cache share',
        'clearings / summaries',
        'time',
      ],
      rows,
    );
    const perPrompt = (o: Outcome) => o.totalInput / Math.max(1, o.completed);
    lines.push(
      '',
      `With context management the session stays under the window (peak ${k(both.peak)} of ${k(WINDOW)}) for all ${both.completed} prompts; without it the API refuses prompt ${none.hitAt ?? '—'}.`,
      `Input tokens per prompt: clear + compact ${k(perPrompt(both))}, compaction only ${k(perPrompt(compactOnly))}, none ${k(perPrompt(none))} (until refused). A clearing or a summary rewrites the prefix once; the cache builds again from there.`,
    );
    const failures: string[] = [];
    for (const o of [both, compactOnly]) {
      if (o.completed < PROMPTS || o.peak > WINDOW)
        failures.push(`${o.label} did not finish under the window.`);
    }
    if (none.hitAt === undefined)
      failures.push('the session without context management did not hit the window.');
    // A broken expectation fails the run (bench/run.ts counts a throw), with the figures that show it.
    if (failures.length) throw new Error([...failures, '', ...lines].join('\n'));
    return lines;
  } finally {
    await api.close();
  }
}
