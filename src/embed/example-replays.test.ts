/**
 * The docs example site's recorded demos (examples/replays/*.replay.json) are real recordings: a live
 * session (the real SDK against the mock Messages API on loopback, whose answers play the model; the
 * real loop and tools on the just-bash sandbox with its real `node`) recorded by the replay recorder.
 * This test records them again and checks that the committed files still say the same (prompts, the
 * model's blocks, every tool result), so the site never ships a demo its tools would contradict.
 * `UPDATE_REPLAYS=1 npx vitest run src/embed/example-replays.test.ts` writes them.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are JavaScript source with template literals of its own
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import type { ScriptedTurn } from '../../e2e/mock-api/types.ts';
import { createAgentSession } from '../agent/session.ts';
import { createMemoryStore } from '../core/storage.ts';
import { createInProcessNodeWorker } from '../runtimes/node/in-process-worker.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { EmbedReplay } from './config.ts';
import { createReplayRecorder } from './replay-recorder.ts';
import { messageFromEvents } from './replay-stream.ts';
import { checkReplay } from './validate-replay.ts';

const DIR = new URL('../../examples/replays/', import.meta.url);
/** The pace of the mock model's stream (ms between events): a demo that visibly streams. */
const PACE_MS = 18;

interface Scenario {
  file: string;
  title: string;
  files: Record<string, string>;
  allow: string[];
  prompts: string[];
  turns: ScriptedTurn[];
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const tool = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});

const SCENARIOS: Scenario[] = [
  {
    file: 'greet.replay.json',
    title: 'Add a farewell() beside greet()',
    files: {
      'README.md': '# Greeting service\n\nA tiny module for the docs demo.\n',
      'src/greet.js': 'exports.greet = (name) => `Hello, ${name}!`;\n',
    },
    allow: ['Bash(node:*)'],
    prompts: ['Add a farewell() function next to greet() and show both working.'],
    turns: [
      {
        content: [
          text('I will read the module first.'),
          tool('toolu_greet_read', 'Read', { file_path: 'src/greet.js' }),
        ],
      },
      {
        content: [
          text('Now I add farewell() below greet().'),
          tool('toolu_greet_edit', 'Edit', {
            file_path: 'src/greet.js',
            old_string: 'exports.greet = (name) => `Hello, ${name}!`;\n',
            new_string:
              'exports.greet = (name) => `Hello, ${name}!`;\nexports.farewell = (name) => `Goodbye, ${name}!`;\n',
          }),
        ],
      },
      {
        content: [
          text('Let me run both.'),
          tool('toolu_greet_run', 'Bash', {
            command: `node -e "const g = require('./src/greet.js'); console.log(g.greet('Ada')); console.log(g.farewell('Ada'))"`,
            description: 'Call greet and farewell',
          }),
        ],
      },
      {
        content: [
          text('Done: **src/greet.js** now exports `greet()` and `farewell()`; both print as expected.'),
        ],
      },
    ],
  },
  {
    file: 'sales.replay.json',
    title: 'Total a CSV column with a small script',
    files: {
      'data/sales.csv': 'region,amount\nnorth,120\nsouth,80\neast,45.5\nwest,200\n',
    },
    allow: ['Bash(node:*)'],
    prompts: ['What is the total of the amount column in data/sales.csv?'],
    turns: [
      {
        content: [
          text('I will write a short script that sums the column.'),
          tool('toolu_sales_write', 'Write', {
            file_path: 'sum.js',
            content:
              "const fs = require('fs');\nconst rows = fs.readFileSync('data/sales.csv', 'utf8').trim().split('\\n').slice(1);\nconst total = rows.reduce((sum, row) => sum + Number(row.split(',')[1]), 0);\nconsole.log(`${rows.length} rows, total ${total}`);\n",
          }),
        ],
      },
      {
        content: [
          tool('toolu_sales_run', 'Bash', { command: 'node sum.js', description: 'Sum the amount column' }),
        ],
      },
      { content: [text('The **amount** column totals **445.5** over 4 rows (see `sum.js`).')] },
    ],
  },
];

/** Records one scenario as the site's replay. */
async function record(api: MockApi, s: Scenario): Promise<EmbedReplay> {
  api.script(s.turns.map((t) => ({ ...(t as object), chunkDelayMs: PACE_MS })) as ScriptedTurn[]);
  const recorder = createReplayRecorder({ files: s.files, title: s.title });
  const sandbox = await createJustBashSandbox({
    files: s.files,
    workers: { node: createInProcessNodeWorker },
    fetch: null,
  });
  const agent = await createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, permissionMode: 'acceptEdits', model: 'claude-sonnet-4-6' },
    sandbox,
    mcp: null,
    permissions: { rules: { allow: s.allow }, storage: null },
    storage: { session: createMemoryStore(), results: createMemoryStore() },
    fetch: recorder.fetch,
  });
  const errors: string[] = [];
  agent.subscribe((e) => {
    if (e.type === 'error') errors.push(e.error.message);
  });
  for (const prompt of s.prompts) await agent.send(prompt);
  await agent.dispose();
  expect(errors).toEqual([]);
  const replay = recorder.replay();
  delete replay.recordedAt;
  return replay;
}

/** What must not change between two recordings (times and generated ids aside). */
function meaning(replay: EmbedReplay) {
  return replay.turns.map((t) => ({
    prompt: t.prompt,
    responses: t.responses.map((r) => ({
      content: (messageFromEvents(r.events ?? []).content as Record<string, unknown>[]).map((b) =>
        b.type === 'text' ? { text: b.text } : { tool: b.name, id: b.id, input: b.input },
      ),
      results: r.results,
    })),
  }));
}

describe('the example site replays', () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi();
  });
  afterAll(() => api.close());

  for (const s of SCENARIOS) {
    it(`${s.file} is a recording the tools still agree with`, async () => {
      const fresh = await record(api, s);
      const warnings: string[] = [];
      expect(checkReplay(fresh, 'replay', (f, m) => warnings.push(`${f}: ${m}`))).toBeDefined();
      expect(warnings).toEqual([]);
      const path = new URL(s.file, DIR);
      if (process.env.UPDATE_REPLAYS === '1') writeFileSync(path, `${JSON.stringify(fresh, null, 1)}\n`);
      const committed = JSON.parse(readFileSync(path, 'utf8')) as EmbedReplay;
      expect(meaning(committed)).toEqual(meaning(fresh));
      expect(committed.files).toEqual(s.files);
      // Every tool call was recorded with its result.
      const calls = meaning(fresh).flatMap((t) =>
        t.responses.flatMap((r) => r.content.filter((b) => 'tool' in b)),
      );
      const results = meaning(fresh).flatMap((t) => t.responses.flatMap((r) => r.results ?? []));
      expect(results.map((r) => r.toolUseId)).toEqual(calls.map((c) => (c as { id: string }).id));
      expect(results.every((r) => !r.isError)).toBe(true);
    }, 60_000);
  }
});
