/**
 * streamReply against the mock Messages API with the real SDK: the reply it puts together equals what
 * the SDK's MessageStream makes of the same stream, hostile tool inputs become the refused-input marker
 * (nothing parses them), and failures are the SDK's errors. The accumulator's edge cases (JSON that is
 * not JSON, brackets inside strings, 10,000 levels) are fed as raw events.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import type { ScriptedBlock } from '../../../e2e/mock-api/types.ts';
import { MAX_TOOL_INPUT_DEPTH } from '../constants.ts';
import { REFUSED_INPUT_FIELD, refusedInputProblem } from '../input-shape.ts';
import { classifyStreamError, createAnthropicClient } from './anthropic.ts';
import { ReplyAccumulator, type ReplyEvent, streamReply } from './reply-stream.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const body: Anthropic.MessageCreateParamsStreaming = {
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
};
const client = () => createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });

/** Nested `{"a":…}` `levels` deep around "bottom", as a value. */
function nested(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

async function drain(stream: AsyncIterable<ReplyEvent>): Promise<ReplyEvent[]> {
  const seen: ReplyEvent[] = [];
  for await (const ev of stream) seen.push(ev);
  return seen;
}

describe('streamReply', () => {
  it('puts the reply together as the SDK does: text, thinking, tool inputs, stop reason and usage', async () => {
    const content: ScriptedBlock[] = [
      { type: 'thinking', thinking: 'Let me think about "quotes" and {braces}.' },
      { type: 'text', text: 'Two calls: ' },
      {
        type: 'tool_use',
        id: 'toolu_a',
        name: 'Write',
        input: { file_path: '/x.js', content: 'const s = "}]\\"[{";\n'.repeat(500) },
      },
      {
        type: 'tool_use',
        id: 'toolu_b',
        name: 'Glob',
        input: { pattern: '**/*.ts', list: [1, [2, { c: null }]] },
      },
    ];
    api.script([{ content }, { content }]);
    let connected = 0;
    const ours = streamReply(client(), body, [], { onConnect: () => connected++ });
    const events = await drain(ours);
    const sdk = await client().messages.stream(body).finalMessage();
    expect(connected).toBe(1);
    expect(events[0].type).toBe('message_start');
    expect(events.filter((e) => e.type === 'content_block_delta').length).toBeGreaterThan(4);
    // The same reply; ids come from two requests of the same script; parsed_output is the SDK's
    // structured-output field (not used here).
    const { parsed_output: _, ...sdkReply } = JSON.parse(JSON.stringify(sdk));
    expect(JSON.parse(JSON.stringify(ours.finalMessage()))).toEqual({
      ...sdkReply,
      id: ours.finalMessage().id,
    });
    expect(ours.finalMessage().stop_reason).toBe('tool_use');
  });

  it('goes through the beta interface with the anthropic-beta header when betas are given', async () => {
    api.script([{ content: [{ type: 'text', text: 'beta' }] }]);
    const reply = streamReply(client(), body, ['advanced-tool-use-2025-11-20']);
    await drain(reply);
    expect(reply.finalMessage().content).toEqual([{ type: 'text', text: 'beta' }]);
    expect(api.requests[0].headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
  });

  it('a tool input nested past the limit is refused with the marker, not parsed', async () => {
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_deep', name: 'Read', input: { extra: nested(200) } }] },
    ]);
    const reply = streamReply(client(), body, []);
    await drain(reply);
    const block = reply.finalMessage().content[0] as Anthropic.ToolUseBlock;
    expect(block.id).toBe('toolu_deep');
    expect(Object.keys(block.input as object)).toEqual([REFUSED_INPUT_FIELD]);
    expect(refusedInputProblem(block.input)).toContain(`nested more than ${MAX_TOOL_INPUT_DEPTH} levels`);
  });

  it('fails with the SDK errors: a cut stream is no reply, an abort is an abort', async () => {
    api.script([{ fault: { kind: 'cut_stream', afterEvents: 3 } }]);
    let started = false;
    const cut = streamReply(client(), body, [], { onConnect: () => (started = true) });
    const error = await drain(cut).then(
      () => cut.finalMessage(),
      (err: unknown) => err,
    );
    expect(started).toBe(true);
    expect(classifyStreamError(error, started)).toMatchObject({ kind: 'network', midStream: true });

    api.script([{ chunkDelayMs: 1_000, content: [{ type: 'text', text: 'late' }] }]);
    const controller = new AbortController();
    const aborted = streamReply(client(), body, [], { signal: controller.signal });
    let seen = 0;
    const abortError = await (async () => {
      // Aborted mid-stream, once the first event is in (the SDK's stream then ends quietly).
      for await (const _ of aborted) if (++seen === 1) controller.abort();
    })().catch((err: unknown) => err);
    expect(seen).toBe(1);
    expect(classifyStreamError(abortError, false).kind).toBe('aborted');
    expect(() => aborted.finalMessage()).toThrow(/without producing a complete message/);
  });
});

/** The raw events of one message whose only block is a tool_use with `json` as its input, in `chunk`-sized deltas. */
function toolUseEvents(json: string, chunk = 7): ReplyEvent[] {
  const events: ReplyEvent[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      } as unknown as Anthropic.Message,
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} } as Anthropic.ToolUseBlock,
    },
  ];
  for (let i = 0; i < json.length; i += chunk) {
    events.push({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: json.slice(i, i + chunk) },
    });
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 9 },
    } as unknown as ReplyEvent,
    { type: 'message_stop' },
  );
  return events;
}

function inputOf(json: string): unknown {
  const acc = new ReplyAccumulator();
  for (const ev of toolUseEvents(json)) acc.add(ev);
  const message = acc.finalMessage();
  expect(message.stop_reason).toBe('tool_use');
  expect(message.usage.output_tokens).toBe(9);
  return (message.content[0] as Anthropic.ToolUseBlock).input;
}

describe('ReplyAccumulator', () => {
  it('parses a streamed input once, brackets and escaped quotes inside strings counting for nothing', () => {
    const value = { path: '[[[[{{{{', q: 'a \\" [{ "', list: [[[]]], n: -1.5e3, t: true, z: null };
    expect(inputOf(JSON.stringify(value))).toEqual(value);
    expect(inputOf('')).toEqual({});
    // Exactly at the limit is fine; one more level is refused.
    expect(inputOf(JSON.stringify(nested(MAX_TOOL_INPUT_DEPTH - 1)).replace('"bottom"', '{}'))).toBeTruthy();
    const over = `${'['.repeat(MAX_TOOL_INPUT_DEPTH + 1)}${']'.repeat(MAX_TOOL_INPUT_DEPTH + 1)}`;
    expect(refusedInputProblem(inputOf(over))).toMatch(/nested more than/);
  });

  it('an input 10,000 levels deep and one that is not JSON get the marker with a clear problem', () => {
    const deep = `{"file_path":"/x","extra":${'{"a":'.repeat(10_000)}"bottom"${'}'.repeat(10_000)}}`;
    expect(refusedInputProblem(inputOf(deep))).toMatch(/nested more than 64 levels deep/);
    expect(refusedInputProblem(inputOf('{"file_path": "/x",'))).toMatch(
      /^its JSON could not be parsed \(.+\)\. Send the call again with valid JSON\.$/,
    );
  });

  it('a reply without message_stop is no reply; deltas for missing blocks are ignored', () => {
    const acc = new ReplyAccumulator();
    const events = toolUseEvents('{"a":1}');
    acc.add({ type: 'content_block_delta', index: 5, delta: { type: 'text_delta', text: 'stray' } });
    for (const ev of events.slice(0, -1)) acc.add(ev);
    acc.add({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'stray' } });
    expect(() => acc.finalMessage()).toThrow(/without producing a complete message/);
    acc.add(events[events.length - 1]);
    expect(acc.finalMessage().content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { a: 1 } },
    ]);
  });
});
