/**
 * A turn larger than the window, through the real loop and the real SDK against the mock Messages API
 * (which refuses a request over its window with "prompt is too long"), with the real Write tool on the
 * just-bash sandbox: one reply writes four large files, so the next request passes the threshold
 * mid-turn. The summarizer must see every message (large inputs shortened), the compacted transcript
 * must let the turn go on, and a summarization the API keeps refusing must fail cleanly, once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockApi, RecordedRequest, TurnSpec } from '../../../e2e/mock-api/server.ts';
import { startMockApi } from '../../../e2e/mock-api/server.ts';
import { validateMessagesRequest } from '../../../e2e/mock-api/validate.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { WriteTool } from '../../tools/write/write.ts';
import { createSchemaCache } from '../api-schema.ts';
import { createToolUseContext, type ToolUseContext } from '../context.ts';
import { createDeferredToolsState } from '../deferred-tools.ts';
import type { QueryEvent } from '../events.ts';
import { contentBlocks, type MessageParam } from '../messages.ts';
import { createAnthropicClient } from '../model/anthropic.ts';
import { type QueryOutcome, type QueryParams, query } from '../query.ts';
import { createContextTracker } from './estimate.ts';
import { COMPACTED_HEADER } from './prompt.ts';

/** The window of the session and of the mock (tokens). */
const WINDOW = 24_000;
/** Four files of ~30 KB: together ~30,000 tokens, more than the window. */
const fileText = (i: number) =>
  Array.from(
    { length: 750 },
    (_, j) => `file ${i} line ${String(j).padStart(4, '0')} ${'z'.repeat(22)}`,
  ).join('\n');

let api: MockApi;
let sandbox: Sandbox;
let context: ToolUseContext;

beforeAll(async () => {
  api = await startMockApi({ contextWindow: WINDOW });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: {} });
  context = createToolUseContext({ sandbox });
});

const isSummaryRequest = (req: RecordedRequest) =>
  JSON.stringify(req.body.messages.at(-1)).includes('about to be compacted');
const SUMMARY: TurnSpec = {
  content: [{ type: 'text', text: '<summary>1. Task: write four files. 6. Next: report.</summary>' }],
};
const writes: TurnSpec = {
  content: [0, 1, 2, 3].map((i) => ({
    type: 'tool_use' as const,
    id: `toolu_write${i}`,
    name: 'Write',
    input: { file_path: `out${i}.txt`, content: fileText(i) },
  })),
};

/** Summarization requests get `summary`; the others get `turns` in order, then "done". */
function script(turns: TurnSpec[], summary: TurnSpec = SUMMARY) {
  const queue = [...turns];
  return Array.from(
    { length: turns.length + 10 },
    () => (req: RecordedRequest) =>
      isSummaryRequest(req) ? summary : (queue.shift() ?? { content: [{ type: 'text', text: 'done' }] }),
  );
}

async function run(
  messages: MessageParam[],
  extra: Partial<QueryParams> = {},
): Promise<{ events: QueryEvent[]; outcome: QueryOutcome }> {
  const client = createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages,
    tools: [ReadTool, WriteTool],
    context,
    schemaCache: createSchemaCache(),
    deferredTools: createDeferredToolsState(),
    contextTracker: createContextTracker(),
    contextSettings: { contextWindow: WINDOW },
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

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const types = (events: QueryEvent[]) =>
  events.filter((e) => e.type.startsWith('compaction')).map((e) => e.type);

describe('a reply larger than the window', () => {
  it('is summarized whole, through a shortened view, and the turn goes on', async () => {
    api.script(script([writes, { content: [{ type: 'text', text: 'all four written' }] }]));
    const { events, outcome } = await run([user('write four files')]);
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(types(events)).toEqual(['compaction-start', 'compaction-end']);
    expect(outcome.reason).toBe('end_turn');

    // The summary request carries the whole turn: the prompt, the four calls, their four results.
    const summary = api.requests[1];
    expect(isSummaryRequest(summary)).toBe(true);
    const sent = JSON.stringify(summary.body.messages);
    expect(sent).toContain('write four files');
    for (let i = 0; i < 4; i++) {
      expect(sent).toContain(`"toolu_write${i}"`);
      expect(sent).toContain(`out${i}.txt`);
      // Each file's beginning and end are shown, its middle left out with a note.
      expect(sent).toContain(`file ${i} line 0000`);
      expect(sent).toContain(`file ${i} line 0749`);
      expect(sent).not.toContain(`file ${i} line 0375`);
    }
    expect(sent).toMatch(/characters left out of this view/);
    expect(
      summary.body.messages
        .flatMap((m) => contentBlocks(m as MessageParam))
        .filter((b) => b.type === 'tool_result'),
    ).toHaveLength(4);
    expect(sent).toContain('only this view is shortened');
    expect(validateMessagesRequest(summary.body)).toBeNull();

    // The turn goes on from the summary alone: a valid request that ends with the user.
    const after = api.requests[2];
    const first = contentBlocks(after.body.messages[0] as MessageParam)[0];
    expect(first.type === 'text' && first.text.startsWith(COMPACTED_HEADER)).toBe(true);
    expect(after.body.messages.at(-1)?.role).toBe('user');
    expect(validateMessagesRequest(after.body)).toBeNull();
    expect(after.rawBody.length).toBeLessThan(20_000);
    expect(outcome.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ text: 'all four written' }],
    });
    // Only the view was shortened: the files hold every line.
    for (let i = 0; i < 4; i++) expect(await sandbox.readFile(`out${i}.txt`)).toBe(fileText(i));
  });

  it('with extended thinking: the signed thinking goes to the summarizer as it was, and the turn goes on', async () => {
    const thinking = { type: 'thinking' as const, thinking: 'Four files, one call each.' };
    api.script(
      script([
        { content: [thinking, ...(writes.content ?? [])] },
        { content: [{ type: 'text', text: 'all four written' }] },
      ]),
    );
    const { events, outcome } = await run([user('write four files')], { thinking: { budgetTokens: 1_024 } });
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(types(events)).toEqual(['compaction-start', 'compaction-end']);
    expect(outcome.reason).toBe('end_turn');
    const summarized = api.requests[1].body.messages.flatMap((m) => contentBlocks(m as MessageParam));
    expect(summarized[1]).toMatchObject(thinking);
    expect(summarized.filter((b) => b.type === 'tool_use')).toHaveLength(4);
  });

  it('a summarization the API refuses as too long is sent again smaller, from the figures it gives', async () => {
    // The session believes in a window three times the API's: the first view is sized wrongly.
    const big = await startMockApi({ contextWindow: WINDOW / 3 });
    try {
      big.script(script([writes, { content: [{ type: 'text', text: 'all four written' }] }]));
      const client = createAnthropicClient({ apiKey: 'test', baseURL: big.url, maxRetries: 0 });
      const gen = query({
        client,
        model: 'claude-test',
        maxTokens: 1024,
        systemPrompt: 'You are a test.',
        messages: [user('write four files')],
        tools: [ReadTool, WriteTool],
        context,
        schemaCache: createSchemaCache(),
        contextTracker: createContextTracker(),
        contextSettings: { contextWindow: WINDOW },
      });
      const events: QueryEvent[] = [];
      for (let step = await gen.next(); !step.done; step = await gen.next()) events.push(step.value);
      const statuses = big.requests.map((r) => [isSummaryRequest(r), r.status]);
      // The reply; the first summary refused; the smaller one accepted; the turn goes on.
      expect(statuses).toEqual([
        [false, 200],
        [true, 400],
        [true, 200],
        [false, 200],
      ]);
      expect(big.requests[1].error).toMatch(/^prompt is too long: \d+ tokens > 8000 maximum$/);
      expect(big.requests[2].rawBody.length).toBeLessThan(big.requests[1].rawBody.length / 2);
      expect(JSON.stringify(big.requests[2].body.messages)).toContain('"toolu_write3"');
      expect(types(events)).toEqual(['compaction-start', 'compaction-end']);
      expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'end_turn' });
    } finally {
      await big.close();
    }
  });
});

describe('a reply larger than a window the session overestimates', () => {
  it('is compacted whole once the API refuses the request, and the turn goes on', async () => {
    api.script(script([writes, { content: [{ type: 'text', text: 'all four written' }] }]));
    // The session believes in 200,000 tokens: only the API's refusal starts the compaction.
    const { events, outcome } = await run([user('write four files')], {
      contextSettings: { contextWindow: 200_000 },
    });
    expect(api.requests.map((r) => [isSummaryRequest(r), r.status])).toEqual([
      [false, 200],
      [false, 400],
      [true, 200],
      [false, 200],
    ]);
    expect(api.requests[1].error).toMatch(/^prompt is too long: \d+ tokens > 24000 maximum$/);
    expect(events.filter((e) => e.type === 'compaction-start')).toMatchObject([{ trigger: 'overflow' }]);
    expect(JSON.stringify(api.requests[2].body.messages)).toContain('"toolu_write3"');
    // The writes were summarized, not kept: the request after the summary fits.
    expect(JSON.stringify(api.requests[3].body.messages)).not.toContain('toolu_write');
    expect(outcome.reason).toBe('end_turn');
  });
});

describe('a summarization that is always refused as too long', () => {
  const refusal: TurnSpec = {
    fault: {
      kind: 'http',
      status: 400,
      type: 'invalid_request_error',
      message: `prompt is too long: ${WINDOW * 3} tokens > ${WINDOW} maximum`,
    },
  };

  it('fails once with a clear message; the turn ends with the error, not a loop of retries', async () => {
    api.script(script([writes, { content: [{ type: 'text', text: 'never' }] }], refusal));
    const { events, outcome } = await run([user('write four files')]);
    const summaries = api.requests.filter(isSummaryRequest);
    // One compaction: the first view and at most two smaller ones (none once the refusal's figures
    // leave no room), then the request itself, refused: it is over the window.
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(summaries.length).toBeLessThanOrEqual(3);
    expect(summaries.map((r) => r.rawBody.length).every((n, i, a) => i === 0 || n < a[i - 1])).toBe(true);
    expect(types(events)).toEqual(['compaction-start', 'compaction-failed']);
    const failed = events.find((e) => e.type === 'compaction-failed');
    expect(failed?.type === 'compaction-failed' && failed.error.message).toMatch(
      /^Compaction failed; the conversation is unchanged\. The summarization request was still too long after it was shortened\..*prompt is too long/,
    );
    expect(api.requests).toHaveLength(summaries.length + 2);
    expect(api.requests.at(-1)?.error).toMatch(/^prompt is too long/);
    expect(outcome.reason).toBe('error');
    // The transcript is as it was, and valid: every call answered.
    expect(outcome.messages).toHaveLength(3);
    expect(contentBlocks(outcome.messages[2]).filter((b) => b.type === 'tool_result')).toHaveLength(4);
  });

  it('leaves a session that still works when the request itself fits', async () => {
    const long = 'word '.repeat(2_000);
    const history: MessageParam[] = [];
    for (let i = 0; i < 4; i++) {
      history.push(user(`question ${i} ${long}`));
      history.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i} ${long}` }] });
    }
    api.script(script([{ content: [{ type: 'text', text: 'answered anyway' }] }], refusal));
    // 4 rounds of ~5,000 tokens (~20,000, with tools ~21,500): past the threshold (85% of the window) but within the window.
    const { events, outcome } = await run([...history, user('next')]);
    expect(types(events)).toEqual(['compaction-start', 'compaction-failed']);
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.messages.slice(0, 8)).toEqual(history);
    expect(outcome.messages.at(-1)).toMatchObject({ content: [{ text: 'answered anyway' }] });
    expect(api.requests.filter(isSummaryRequest).length).toBeLessThanOrEqual(3);
  });
});
