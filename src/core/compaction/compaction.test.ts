/**
 * Context management in the loop, on the real SDK against the mock Messages API (which refuses every
 * request the real API would refuse, and answers "prompt is too long" over its window), with real tools
 * on the just-bash sandbox: old results cleared first, then the conversation summarized; the requests
 * after it stay valid and keep tools and system byte-identical; an overflow 400 compacts once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MockApi, RecordedRequest, TurnSpec } from '../../../e2e/mock-api/server.ts';
import { startMockApi } from '../../../e2e/mock-api/server.ts';
import { validateMessagesRequest } from '../../../e2e/mock-api/validate.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { assembleToolPool } from '../../tools/registry.ts';
import { ToolSearchTool } from '../../tools/tool-search/tool-search.ts';
import { createSchemaCache, type SchemaCache } from '../api-schema.ts';
import { CLEARED_TOOL_RESULT_TEXT } from '../constants.ts';
import { createToolUseContext, type ToolUseContext } from '../context.ts';
import {
  createDeferredToolsState,
  DEFERRED_TOOLS_HEADER,
  type DeferredToolsState,
} from '../deferred-tools.ts';
import type { QueryEvent } from '../events.ts';
import { memoryReminder } from '../memory.ts';
import { contentBlocks, type MessageParam } from '../messages.ts';
import { createAnthropicClient } from '../model/anthropic.ts';
import { type QueryOutcome, type QueryParams, query } from '../query.ts';
import { type AnyTool, buildTool, textResult } from '../tool.ts';
import { clearOldToolResults } from './clear.ts';
import { type ContextTracker, createContextTracker } from './estimate.ts';
import { COMPACTED_HEADER } from './prompt.ts';
import { compactConversation } from './summarize.ts';
import { compactedTranscript, splitForCompaction } from './transcript.ts';

/** 9,000 characters in lines of 45 (Read cuts long lines, not many lines). */
const BIG = Array.from(
  { length: 200 },
  (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(35)}`,
).join('\n');
const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`big${i}.txt`, `${i}${BIG}\n`]));

let api: MockApi;
let sandbox: Sandbox;
let context: ToolUseContext;
let cache: SchemaCache;
let deferral: DeferredToolsState;
let tracker: ContextTracker;

beforeAll(async () => {
  api = await startMockApi({ checkToolVisibility: true });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files });
  context = createToolUseContext({ sandbox });
  cache = createSchemaCache();
  deferral = createDeferredToolsState();
  tracker = createContextTracker();
});

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const TOOLS: AnyTool[] = [BashTool, ReadTool];

async function run(
  messages: MessageParam[],
  extra: Partial<QueryParams> = {},
  baseURL = api.url,
): Promise<{ events: QueryEvent[]; outcome: QueryOutcome }> {
  const client = createAnthropicClient({ apiKey: 'test', baseURL, maxRetries: 0 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages,
    tools: TOOLS,
    context,
    schemaCache: cache,
    deferredTools: deferral,
    contextTracker: tracker,
    ...extra,
  });
  const events: QueryEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  context = { ...step.value.context, abortController: new AbortController() };
  return { events, outcome: step.value };
}

/** The last user text of a recorded request. */
function lastUserText(req: RecordedRequest): string {
  const last = req.body.messages.at(-1);
  if (!last || typeof last.content === 'string') return String(last?.content ?? '');
  return last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}
const isSummaryRequest = (req: RecordedRequest) => lastUserText(req).includes('about to be compacted');
const SUMMARY = '<summary>1. Task: read the big files. 6. Next step: say done.</summary>';

/** A script where summarization requests get SUMMARY and the others get `turns` in order. */
function script(turns: TurnSpec[], summary: TurnSpec = { content: [{ type: 'text', text: SUMMARY }] }) {
  const queue = [...turns];
  return Array.from(
    { length: turns.length + 6 },
    () => (req: RecordedRequest) =>
      isSummaryRequest(req) ? summary : (queue.shift() ?? { content: [{ type: 'text', text: 'done' }] }),
  );
}

const readTurn = (i: number): TurnSpec => ({
  content: [{ type: 'tool_use', id: `toolu_read${i}`, name: 'Read', input: { file_path: `big${i}.txt` } }],
});

describe('clearing old tool results', () => {
  it('clears the old large results first and goes on without summarizing', async () => {
    api.script(
      script([
        readTurn(0),
        readTurn(1),
        readTurn(2),
        readTurn(3),
        readTurn(4),
        { content: [{ type: 'text', text: 'read them all' }] },
      ]),
    );
    const { events, outcome } = await run([user('read big0..big4')], {
      contextSettings: { contextWindow: 14_000, autoCompactRatio: 0.8 },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests.every((r) => r.status === 200)).toBe(true);
    expect(events.some((e) => e.type === 'context-cleared')).toBe(true);
    expect(events.some((e) => e.type === 'compaction-start')).toBe(false);
    expect(api.requests.some(isSummaryRequest)).toBe(false);
    // The last request: the oldest results cleared, the recent ones whole, every tool_use answered.
    const last = api.requests.at(-1)?.body as unknown as { messages: MessageParam[] };
    const results = last.messages.flatMap((m) => contentBlocks(m).filter((b) => b.type === 'tool_result'));
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_read0', content: CLEARED_TOOL_RESULT_TEXT });
    expect(JSON.stringify(results.at(-1))).toContain('line 150 xxxxx');
    // The transcript keeps the clearing: later requests repeat the same bytes.
    expect(JSON.stringify(outcome.messages)).toContain(CLEARED_TOOL_RESULT_TEXT);
  });

  it('keeps ToolSearch results, the most recent results and small ones', () => {
    const messages: MessageParam[] = [
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:x' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: {} },
          { type: 'tool_use', id: 't3', name: 'Read', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'y'.repeat(5000) },
          { type: 'tool_result', tool_use_id: 't2', content: 'small' },
          { type: 'tool_result', tool_use_id: 't3', content: 'z'.repeat(5000) },
        ],
      },
    ];
    const out = clearOldToolResults(messages, { keepRecent: 0 });
    expect(out.cleared).toBe(1);
    const blocks = contentBlocks(out.messages[2]);
    expect(blocks.map((b) => (b.type === 'tool_result' ? b.content : ''))).toEqual([
      'y'.repeat(5000),
      'small',
      CLEARED_TOOL_RESULT_TEXT,
    ]);
    expect(clearOldToolResults(messages).cleared).toBe(0);
    expect(messages[2].content).not.toBe(out.messages[2].content);
  });
});

describe('auto-compaction', () => {
  it('summarizes a long conversation; the next request is valid with the same tools and system bytes', async () => {
    const long = 'word '.repeat(1_200);
    let transcript: MessageParam[] = [];
    const events: QueryEvent[] = [];
    api.script(
      script(
        Array.from({ length: 5 }, (_, i) => ({ content: [{ type: 'text', text: `answer ${i} ${long}` }] })),
      ),
    );
    for (let i = 0; i < 5; i++) {
      const r = await run([...transcript, user(`question ${i} ${long}`)], {
        contextSettings: { contextWindow: 12_000 },
      });
      transcript = r.outcome.messages;
      events.push(...r.events);
    }
    expect(api.requests.every((r) => r.status === 200)).toBe(true);
    const summaryAt = api.requests.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'compaction-end' && e.trigger === 'auto')).toBe(true);
    // Tools and system are byte-identical before, during and after; their cache is read after it.
    const before = api.requests[summaryAt - 1];
    const summary = api.requests[summaryAt];
    const after = api.requests[summaryAt + 1];
    for (const r of [summary, after]) {
      expect(JSON.stringify(r.body.tools)).toBe(JSON.stringify(before.body.tools));
      expect(JSON.stringify(r.body.system)).toBe(JSON.stringify(before.body.system));
    }
    expect(after.response?.usage.cache_read_input_tokens).toBeGreaterThan(0);
    // The compacted transcript opens with the summary; the current prompt follows it as it was.
    const first = contentBlocks(after.body.messages[0] as MessageParam)[0];
    expect(first.type === 'text' && first.text.startsWith(COMPACTED_HEADER)).toBe(true);
    expect(JSON.stringify(after.body.messages)).toContain('read the big files');
    // The prompt that triggered it is the last block, as it was sent (it shares the summary's message
    // when everything before it was summarized: two user messages in a row are one).
    const prompt = contentBlocks(after.body.messages.at(-1) as MessageParam).at(-1);
    expect(prompt?.type).toBe('text');
    expect(prompt?.type === 'text' && /^question \d /.test(prompt.text) && prompt.text.endsWith(long)).toBe(
      true,
    );
    expect(validateMessagesRequest(after.body)).toBeNull();
    // It is much smaller than the conversation it replaced.
    expect(after.rawBody.length).toBeLessThan(before.rawBody.length / 2);
  });

  it('keeps the deferred-tool announcement and the discovered tools, in native mode', async () => {
    const mcp = buildTool({
      name: 'mcp__gh__create_issue',
      inputSchema: z.looseObject({}),
      inputJSONSchema: { type: 'object', properties: { title: { type: 'string' } } },
      description: () => 'Create an issue on GitHub',
      isMcp: true,
      mcpInfo: { serverName: 'gh', toolName: 'create_issue' },
      isConcurrencySafe: () => true,
      checkPermissions: async () => ({ behavior: 'allow' }),
      call: async () => ({ data: 'created #7' }),
      mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
    });
    const pool = assembleToolPool([BashTool, ReadTool, ToolSearchTool], [mcp]);
    const filler = 'text '.repeat(3_000);
    api.script(
      script([
        {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_ts',
              name: 'ToolSearch',
              input: { query: 'select:mcp__gh__create_issue' },
            },
          ],
        },
        { content: [{ type: 'text', text: `loaded ${filler}` }] },
        { content: [{ type: 'text', text: `more ${filler}` }] },
        {
          content: [
            { type: 'tool_use', id: 'toolu_gh', name: 'mcp__gh__create_issue', input: { title: 'x' } },
          ],
        },
        { content: [{ type: 'text', text: 'issue created' }] },
      ]),
    );
    let transcript: MessageParam[] = [];
    for (const prompt of ['find the issue tool', `again ${filler}`, 'now create the issue']) {
      const r = await run([...transcript, user(prompt)], {
        tools: undefined,
        getTools: () => pool,
        contextSettings: { contextWindow: 9_000 },
      });
      transcript = r.outcome.messages;
    }
    expect(api.requests.map((r) => r.status).every((s) => s === 200)).toBe(true);
    const summaryAt = api.requests.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    const after = api.requests[summaryAt + 1];
    expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(api.requests[summaryAt - 1].body.tools));
    const text = JSON.stringify(after.body.messages);
    expect(text).toContain(DEFERRED_TOOLS_HEADER.slice(0, 40));
    expect(text).toContain('"tool_reference"');
    // The model could still call the tool it found before the summary (the mock refuses unseen tools).
    const called = api.requests.findIndex((r) =>
      r.response?.content.some((b) => b.type === 'tool_use' && b.name === 'mcp__gh__create_issue'),
    );
    expect(called).toBeGreaterThan(summaryAt);
    expect(api.requests.at(-1)?.body.messages.some((m) => JSON.stringify(m).includes('created #7'))).toBe(
      true,
    );
  });

  it('a failing summarization leaves the transcript as it was and the turn goes on', async () => {
    const long = 'word '.repeat(2_400);
    const transcript: MessageParam[] = [
      user(`q ${long}`),
      { role: 'assistant', content: [{ type: 'text', text: `a ${long}` }] },
    ];
    api.script(
      script([{ content: [{ type: 'text', text: 'fine' }] }], {
        fault: { kind: 'http', status: 500, type: 'api_error', message: 'boom' },
      }),
    );
    const { events, outcome } = await run([...transcript, user('next')], {
      contextSettings: { contextWindow: 5_000 },
    });
    const failed = events.find((e) => e.type === 'compaction-failed');
    expect(failed?.type === 'compaction-failed' && failed.error.message).toContain(
      'the conversation is unchanged',
    );
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.messages.slice(0, 2)).toEqual(transcript);
  });

  it('an interrupted summarization leaves the transcript as it was', async () => {
    const long = 'word '.repeat(2_400);
    const transcript: MessageParam[] = [
      user(`q ${long}`),
      { role: 'assistant', content: [{ type: 'text', text: `a ${long}` }] },
    ];
    api.script(script([], { chunkDelayMs: 200, content: [{ type: 'text', text: SUMMARY }] }));
    setTimeout(() => context.abortController.abort(), 300);
    const { events, outcome } = await run([...transcript, user('next')], {
      contextSettings: { contextWindow: 5_000 },
    });
    expect(events.some((e) => e.type === 'compaction-failed')).toBe(true);
    expect(outcome.reason).toBe('interrupted');
    expect(outcome.messages.slice(0, 2)).toEqual(transcript);
    expect(events.some((e) => e.type === 'compaction-end')).toBe(false);
  });
});

describe('"prompt is too long"', () => {
  let small: MockApi;
  beforeAll(async () => {
    small = await startMockApi({ contextWindow: 9_000 });
  });
  afterAll(() => small.close());
  beforeEach(() => small.reset());

  it('compacts once and sends the turn again', async () => {
    // The window the session believes in is large, so only the API's 400 can start a compaction.
    const transcript: MessageParam[] = [
      user('read'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'big0.txt' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: BIG + BIG + BIG + BIG }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'read it' }] },
    ];
    small.script(script([{ content: [{ type: 'text', text: 'continuing after the summary' }] }]));
    const { events, outcome } = await run(
      [...transcript, user('go on')],
      { contextSettings: { contextWindow: 200_000 } },
      small.url,
    );
    expect(outcome.reason).toBe('end_turn');
    expect(small.requests[0].status).toBe(400);
    expect(small.requests[0].error).toMatch(/^prompt is too long: \d+ tokens > 9000 maximum$/);
    expect(
      events
        .filter((e) => e.type === 'compaction-start')
        .map((e) => e.type === 'compaction-start' && e.trigger),
    ).toEqual(['overflow']);
    expect(small.requests.at(-1)?.status).toBe(200);
    expect(JSON.stringify(small.requests.at(-1)?.body.messages)).toContain(COMPACTED_HEADER);
  });

  it('a second refusal ends the turn with the error: never a loop', async () => {
    const huge = 'y'.repeat(45_000);
    small.script(script([{ content: [{ type: 'text', text: 'never' }] }]));
    const history: MessageParam[] = [
      user('hello'),
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ];
    const { events, outcome } = await run(
      [...history, user(huge)],
      { contextSettings: { contextWindow: 200_000 } },
      small.url,
    );
    expect(outcome.reason).toBe('error');
    const error = events.find((e) => e.type === 'error');
    expect(error?.type === 'error' && error.error.message).toContain('prompt is too long');
    expect(small.requests.length).toBeLessThanOrEqual(4);
    expect(events.filter((e) => e.type === 'compaction-start')).toHaveLength(1);
  });
});

describe('the compacted transcript', () => {
  it('keeps the work in progress as the tail and re-states the memory', () => {
    const memory = memoryReminder([{ label: 'CLAUDE.md', text: 'Always use tabs.' }]);
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: memory?.text ?? '' },
          { type: 'text', text: 'start' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      user('edit it'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_e', name: 'Read', input: { file_path: 'a' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_e', content: 'text' }] },
    ];
    const { head, tail } = splitForCompaction(messages);
    expect(tail).toEqual(messages.slice(3));
    const out = compactedTranscript({ summary: 'S', head, tail, pool: TOOLS });
    expect(out).toHaveLength(3);
    expect(JSON.stringify(out[0])).toContain('Always use tabs.');
    expect(
      validateMessagesRequest({
        model: 'm',
        max_tokens: 10,
        messages: out,
        tools: [{ name: 'Read', input_schema: { type: 'object' } }],
      }),
    ).toBeNull();
  });

  it('refuses to compact an empty session', async () => {
    const client = createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
    const outcome = await compactConversation({
      client,
      model: 'm',
      systemPrompt: 's',
      pool: TOOLS,
      schemaCache: cache,
      deferral,
      messages: [],
    });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.message).toContain('nothing to compact');
    expect(api.requests).toHaveLength(0);
  });
});
