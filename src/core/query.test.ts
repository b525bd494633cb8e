/**
 * The loop on the real @anthropic-ai/sdk against the mock Messages API, with real tools on the real
 * just-bash sandbox. Every request the loop sends is checked by the mock the way the real API checks it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { BashTool } from '../tools/bash/bash.ts';
import { EditTool } from '../tools/edit/edit.ts';
import { ReadTool } from '../tools/read/read.ts';
import { WriteTool } from '../tools/write/write.ts';
import { createSchemaCache, type SchemaCache } from './api-schema.ts';
import {
  INTERRUPT_MESSAGE,
  INTERRUPT_MESSAGE_FOR_TOOL_USE,
  SYNTHETIC_TOOL_RESULT_INTERRUPTED,
} from './constants.ts';
import { createToolUseContext, type ToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import { type MessageParam, toolResults } from './messages.ts';
import { createAnthropicClient } from './model/anthropic.ts';
import { type QueryOutcome, query } from './query.ts';
import type { AnyTool } from './tool.ts';

let api: MockApi;
let sandbox: Sandbox;
let context: ToolUseContext;
let cache: SchemaCache;
const tools: AnyTool[] = [BashTool, EditTool, ReadTool, WriteTool];

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
  context = createToolUseContext({ sandbox, options: { tools } });
  cache = createSchemaCache();
});

async function run(
  messages: MessageParam[],
  opts: { maxTurns?: number; onEvent?: (e: QueryEvent) => void; apiKey?: string } = {},
): Promise<{ events: QueryEvent[]; outcome: QueryOutcome }> {
  const client = createAnthropicClient({ apiKey: opts.apiKey ?? 'test', baseURL: api.url, maxRetries: 2 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages,
    tools,
    context,
    schemaCache: cache,
    maxTurns: opts.maxTurns,
  });
  const events: QueryEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    opts.onEvent?.(step.value);
    step = await gen.next();
  }
  context = { ...step.value.context, abortController: new AbortController() };
  return { events, outcome: step.value };
}

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const types = (events: QueryEvent[]) => events.map((e) => e.type);

describe('query on the real SDK and the mock API', () => {
  it('streams a text answer and ends the turn', async () => {
    api.script([{ content: [{ type: 'text', text: 'Hello there, friend.' }] }]);
    const { events, outcome } = await run([user('hi')]);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toBe('Hello there, friend.');
    expect(events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
    expect(types(events)[0]).toBe('request-start');
    expect(types(events).at(-1)).toBe('turn-end');
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.messages).toHaveLength(2);
    const body = api.requests[0].body;
    expect(body.tools?.map((t) => (t as { name: string }).name)).toEqual(['Bash', 'Edit', 'Read', 'Write']);
    expect(api.requests[0].status).toBe(200);
  });

  it('runs tools across turns: write, edit, bash cat, parallel reads; results pair with their uses', async () => {
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_w',
            name: 'Write',
            input: { file_path: 'notes.md', content: 'one\ntwo\n' },
          },
        ],
      },
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_e',
            name: 'Edit',
            input: { file_path: 'notes.md', old_string: 'two', new_string: 'TWO' },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'cat notes.md' } }] },
      {
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_r1', name: 'Read', input: { file_path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_r2', name: 'Read', input: { file_path: 'b.txt' } },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const { outcome, events } = await run([user('go')]);
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await sandbox.readFile('notes.md')).toBe('one\nTWO\n');
    const results = events.filter(
      (e): e is Extract<QueryEvent, { type: 'tool-result' }> => e.type === 'tool-result',
    );
    // Turns run in order; the two reads of one turn run concurrently, so their events come as each
    // finishes (either order). The message the model gets keeps the order of the uses (checked below).
    const pairs = results.map((r) => [r.toolUseId, r.status]);
    expect(pairs.slice(0, 3)).toEqual([
      ['toolu_w', 'done'],
      ['toolu_e', 'done'],
      ['toolu_b', 'done'],
    ]);
    expect(pairs.slice(3).sort()).toEqual([
      ['toolu_r1', 'done'],
      ['toolu_r2', 'done'],
    ]);
    const bashResult = api.requests[3].body.messages.at(-1);
    expect(JSON.stringify(bashResult)).toContain('one\\nTWO');
    const last = api.requests[4].body.messages.at(-1) as MessageParam;
    expect(toolResults(last).map((r) => r.tool_use_id)).toEqual(['toolu_r1', 'toolu_r2']);
    expect(JSON.stringify(last)).toContain('alpha');
    expect(JSON.stringify(last)).toContain('beta');
    // One session: tools and system bytes never change between requests.
    const toolsJson = api.requests.map((r) => JSON.stringify(r.body.tools));
    expect(new Set(toolsJson).size).toBe(1);
    expect(new Set(api.requests.map((r) => JSON.stringify(r.body.system))).size).toBe(1);
  });

  it('turns bad input and unknown tools into is_error results the model can act on, then recovers', async () => {
    api.script([
      {
        content: [
          { type: 'tool_use', id: 'toolu_bad', name: 'Read', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_ghost', name: 'Teleport', input: {} },
        ],
      },
      (req) => {
        const last = req.body.messages.at(-1) as MessageParam;
        const [bad, ghost] = toolResults(last);
        expect(bad).toMatchObject({ tool_use_id: 'toolu_bad', is_error: true });
        expect(String(bad.content)).toMatch(/InputValidationError: Read/);
        expect(String(bad.content)).toMatch(/file_path/);
        expect(ghost).toMatchObject({ tool_use_id: 'toolu_ghost', is_error: true });
        expect(String(ghost.content)).toMatch(/No such tool available: Teleport/);
        return {
          content: [{ type: 'tool_use', id: 'toolu_ok', name: 'Read', input: { file_path: 'a.txt' } }],
        };
      },
      { content: [{ type: 'text', text: 'Recovered.' }] },
    ]);
    const { outcome } = await run([user('go')]);
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('makes a failing command an is_error result', async () => {
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_f', name: 'Bash', input: { command: 'cat missing.txt' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    await run([user('go')]);
    const results = toolResults(api.requests[1].body.messages.at(-1) as MessageParam);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(String(JSON.stringify(results[0].content))).toMatch(/No such file/);
  });

  it('retries 429 and 529 through the SDK and goes on', async () => {
    api.script([
      { fault: { kind: 'rate_limit' } },
      { fault: { kind: 'overloaded', retryAfterMs: 10 } },
      { content: [{ type: 'text', text: 'after retries' }] },
    ]);
    const { outcome, events } = await run([user('hi')]);
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(api.requests.map((r) => r.status)).toEqual([429, 529, 200]);
  });

  it('reports API errors as error events and keeps the transcript valid', async () => {
    api.script([{ fault: { kind: 'http', status: 400, type: 'invalid_request_error', message: 'nope' } }]);
    const first = await run([user('hi')]);
    const err = first.events.find((e) => e.type === 'error');
    expect(err).toMatchObject({ error: { kind: 'invalid_request', status: 400 } });
    expect(first.outcome.reason).toBe('error');
    api.script([{ content: [{ type: 'text', text: 'fine now' }] }]);
    const second = await run([...first.outcome.messages, user('again')]);
    expect(second.outcome.reason).toBe('end_turn');
    expect(api.requests.at(-1)?.status).toBe(200);
  });

  it('reports a rejected key plainly', async () => {
    const { events } = await run([user('hi')], { apiKey: 'bad-key' });
    const err = events.find((e) => e.type === 'error');
    expect(err).toMatchObject({ error: { kind: 'auth', status: 401 } });
    expect(err && 'error' in err ? err.error.message : '').toMatch(/Settings/);
  });

  it('a reply that stops partway (SSE overloaded error) is sent again after a announced wait', async () => {
    api.script([
      { fault: { kind: 'stream_error', afterEvents: 3 }, content: [{ type: 'text', text: 'half' }] },
      { content: [{ type: 'text', text: 'whole reply' }] },
    ]);
    const { outcome, events } = await run([user('hi')]);
    expect(outcome.reason).toBe('end_turn');
    const wait = events.find((e) => e.type === 'retry-wait');
    expect(wait).toMatchObject({
      attempt: 1,
      maxRetries: 2,
      error: { kind: 'overloaded', midStream: true, message: 'The API is overloaded: Overloaded' },
    });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    // The retried request is the same conversation; the half reply is in no transcript.
    expect(api.requests[1].body.messages).toEqual(api.requests[0].body.messages);
    expect(JSON.stringify(outcome.messages)).not.toContain('half');
  });

  it('survives stream cuts mid tool input: retried, then an error event, no half message in the transcript', async () => {
    api.script([
      { fault: { kind: 'cut_stream' } },
      { fault: { kind: 'cut_stream' } },
      { fault: { kind: 'cut_stream' } },
    ]);
    const first = await run([user('hi')]);
    expect(first.events.filter((e) => e.type === 'retry-wait')).toHaveLength(2);
    expect(first.events.find((e) => e.type === 'error')).toMatchObject({
      error: { kind: 'network', midStream: true },
    });
    expect(api.requests).toHaveLength(3);
    expect(first.outcome.messages).toHaveLength(1);
    api.script([{ content: [{ type: 'text', text: 'back' }] }]);
    const second = await run([...first.outcome.messages, user('retry')]);
    expect(second.outcome.reason).toBe('end_turn');
    expect(api.requests.at(-1)?.status).toBe(200);
  });

  it('Esc during a slow tool: synthetic result + interrupt marker; the next request is accepted', async () => {
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_slow', name: 'Bash', input: { command: 'sleep 30' } }] },
    ]);
    const { outcome, events } = await run([user('wait')], {
      onEvent: (e) => {
        if (e.type === 'tool-run-start') setTimeout(() => context.abortController.abort(), 100);
      },
    });
    expect(outcome.reason).toBe('interrupted');
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ status: 'interrupted', isError: true });
    const last = outcome.messages.at(-1) as MessageParam;
    expect(toolResults(last).map((r) => r.tool_use_id)).toEqual(['toolu_slow']);
    expect(JSON.stringify(last)).toContain(INTERRUPT_MESSAGE_FOR_TOOL_USE);
    api.script([{ content: [{ type: 'text', text: 'ok, stopped' }] }]);
    const next = await run([...outcome.messages, user('go on')]);
    expect(next.outcome.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it('Esc during a command that has printed: the result keeps what it printed, then says it was interrupted', async () => {
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_ticks',
            name: 'Bash',
            input: { command: 'echo tick1; echo tick2; sleep 30; echo never' },
          },
        ],
      },
    ]);
    let seen = '';
    const { outcome, events } = await run([user('count')], {
      onEvent: (e) => {
        if (e.type !== 'tool-progress') return;
        seen += e.text;
        if (seen.includes('tick2')) context.abortController.abort();
      },
    });
    expect(outcome.reason).toBe('interrupted');
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ status: 'interrupted', isError: true });
    const block = toolResults(outcome.messages.at(-1) as MessageParam)[0];
    const text = JSON.stringify(block.content);
    expect(text).toContain('tick1\\ntick2');
    expect(text).not.toContain('never');
    expect(text).toContain(SYNTHETIC_TOOL_RESULT_INTERRUPTED);
    expect(block.is_error).toBe(true);
    api.script([{ content: [{ type: 'text', text: 'ok, stopped' }] }]);
    const next = await run([...outcome.messages, user('go on')]);
    expect(next.outcome.reason).toBe('end_turn');
  });

  it('Esc while the answer streams: the turn ends interrupted and the transcript stays valid', async () => {
    api.script([{ content: [{ type: 'text', text: 'a long answer '.repeat(30) }], chunkDelayMs: 30 }]);
    const { outcome } = await run([user('talk')], {
      onEvent: (e) => {
        if (e.type === 'text-delta') context.abortController.abort();
      },
    });
    expect(outcome.reason).toBe('interrupted');
    expect(JSON.stringify(outcome.messages.at(-1))).toContain(INTERRUPT_MESSAGE);
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const next = await run([...outcome.messages, user('again')]);
    expect(next.outcome.reason).toBe('end_turn');
    expect(api.requests.at(-1)?.status).toBe(200);
  });

  it('stops after max turns', async () => {
    const again = () => ({
      content: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: 'a.txt' } }],
    });
    api.script([again, again, again, again]);
    const { outcome } = await run([user('loop')], { maxTurns: 3 });
    expect(outcome.reason).toBe('max_turns');
    expect(api.requests).toHaveLength(3);
  });
});
