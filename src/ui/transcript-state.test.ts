import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../agent/types.ts';
import { initialTranscript, reduceTranscript, type TranscriptState } from './transcript-state.ts';

function run(events: SessionEvent[]): TranscriptState {
  return events.reduce(reduceTranscript, initialTranscript);
}

describe('reduceTranscript', () => {
  it('drops the missing-key notice once a turn starts (a key was set since), and keeps other notices', () => {
    const state = [
      { type: 'local-notice', notice: 'missing-key' } as const,
      { type: 'local-notice', notice: 'interrupted' } as const,
      { type: 'run-start', prompt: 'hi' } as const,
    ].reduce(reduceTranscript, initialTranscript);
    expect(state.items.map((i) => (i.kind === 'notice' ? i.notice : i.kind))).toEqual([
      'interrupted',
      'user',
    ]);
  });

  it('accumulates text per message and block, and tracks a tool call to its result', () => {
    const state = run([
      { type: 'run-start', prompt: 'hi' },
      { type: 'message-start', messageId: 'm1', model: 'x' },
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'text-delta', index: 0, text: 'lo' },
      { type: 'tool-use-start', index: 1, toolUseId: 't1', name: 'Bash' },
      { type: 'tool-input-delta', toolUseId: 't1', partialJson: '{"command":' },
      {
        type: 'tool-run-start',
        toolUseId: 't1',
        name: 'Bash',
        input: { command: 'ls' },
        view: { title: 'Bash' },
      },
      { type: 'tool-progress', toolUseId: 't1', kind: 'output', text: 'a\n' },
      {
        type: 'tool-result',
        toolUseId: 't1',
        name: 'Bash',
        isError: false,
        block: { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a' }] },
        status: 'done',
        durationMs: 5,
      },
      { type: 'message-start', messageId: 'm2', model: 'x' },
      { type: 'text-delta', index: 0, text: 'Done' },
      { type: 'turn-end', reason: 'end_turn' },
      { type: 'run-end', transcriptLength: 4 },
    ]);
    expect(state.running).toBe(false);
    expect(state.items.map((i) => i.kind)).toEqual(['user', 'assistant-text', 'tool', 'assistant-text']);
    const [, first, tool, last] = state.items;
    expect(first.kind === 'assistant-text' && first.text).toBe('Hello');
    expect(last.kind === 'assistant-text' && last.text).toBe('Done');
    if (tool.kind !== 'tool') throw new Error('expected a tool card');
    expect(tool.card).toMatchObject({ status: 'done', progress: 'a\n', inputJson: '{"command":' });
    expect(tool.card.result).toMatchObject({ content: 'a', durationMs: 5, isError: false });
  });

  it("a call refused before it ran is named by its result's callView; a view it had is kept", () => {
    const refused = (id: string) =>
      ({
        type: 'tool-result',
        toolUseId: id,
        name: 'Edit',
        isError: true,
        block: {
          type: 'tool_result',
          tool_use_id: id,
          content: 'String to replace not found',
          is_error: true,
        },
        callView: { title: 'Update', subtitle: '/p/a.js' },
        status: 'error',
        durationMs: 1,
      }) as const;
    const state = run([
      { type: 'run-start', prompt: 'go' },
      { type: 'tool-use-start', index: 0, toolUseId: 't1', name: 'Edit' },
      refused('t1'),
      { type: 'tool-use-start', index: 1, toolUseId: 't2', name: 'Edit' },
      {
        type: 'tool-run-start',
        toolUseId: 't2',
        name: 'Edit',
        input: {},
        view: { title: 'Create', subtitle: '/p/b.js' },
      },
      refused('t2'),
    ]);
    const cards = state.items.flatMap((i) => (i.kind === 'tool' ? [i.card] : []));
    expect(cards.map((c) => c.view?.title)).toEqual(['Update', 'Create']);
    expect(cards[0].result).toMatchObject({ isError: true, content: 'String to replace not found' });
  });

  it('creates a card for a result without a start, marks interrupts once, and hides aborts', () => {
    const state = run([
      { type: 'run-start', prompt: 'go' },
      {
        type: 'tool-result',
        toolUseId: 't9',
        name: 'Read',
        isError: true,
        block: { type: 'tool_result', tool_use_id: 't9', content: 'stopped', is_error: true },
        status: 'interrupted',
        durationMs: 0,
      },
      { type: 'error', error: { kind: 'aborted', message: 'Request aborted.' } },
      { type: 'turn-end', reason: 'interrupted' },
      { type: 'turn-end', reason: 'interrupted' },
    ]);
    expect(state.items.map((i) => (i.kind === 'notice' ? i.notice : i.kind))).toEqual([
      'user',
      'tool',
      'interrupted',
    ]);
  });

  it('keeps a permission prompt on the card until the call runs', () => {
    const answers: unknown[] = [];
    let state = run([
      {
        type: 'permission-request',
        toolUseId: 't2',
        name: 'Bash',
        input: { command: 'rm -rf x' },
        view: { title: 'Bash' },
        message: 'Allow rm?',
        respond: (a) => answers.push(a),
      },
    ]);
    const card = state.items[0];
    if (card.kind !== 'tool') throw new Error('expected a tool card');
    card.card.permission?.respond({ decision: 'allow-once' });
    expect(answers).toEqual([{ decision: 'allow-once' }]);
    state = reduceTranscript(state, {
      type: 'tool-run-start',
      toolUseId: 't2',
      name: 'Bash',
      input: {},
      view: { title: 'Bash' },
    });
    const after = state.items[0];
    expect(after.kind === 'tool' && after.card.permission).toBeUndefined();
  });
});

describe('restore', () => {
  it('turns running and pending cards of a cut-off turn into interrupted ones, ends with the marker, keeps ids unique', () => {
    const items = run([
      { type: 'run-start', prompt: 'go' },
      { type: 'tool-use-start', index: 0, toolUseId: 'a', name: 'Bash' },
      { type: 'tool-use-start', index: 1, toolUseId: 'b', name: 'Bash' },
      { type: 'tool-run-start', toolUseId: 'a', name: 'Bash', input: {}, view: { title: 'Bash' } },
    ]).items;
    const restored = reduceTranscript(initialTranscript, { type: 'local-restore', items, interrupted: true });
    expect(restored.running).toBe(false);
    expect(restored.items.map((i) => (i.kind === 'tool' ? i.card.status : i.kind))).toEqual([
      'user',
      'interrupted',
      'interrupted',
      'notice',
    ]);
    const next = reduceTranscript(restored, { type: 'run-start', prompt: 'again' });
    const ids = next.items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a finished session restores as it was', () => {
    const items = run([
      { type: 'run-start', prompt: 'go' },
      { type: 'run-end', transcriptLength: 1 },
    ]).items;
    const restored = reduceTranscript(initialTranscript, {
      type: 'local-restore',
      items,
      interrupted: false,
    });
    expect(restored.items).toEqual(items);
  });
});

describe('clean ends', () => {
  const start: SessionEvent[] = [
    { type: 'run-start', prompt: 'go' },
    { type: 'message-start', messageId: 'm1', model: 'x' },
    { type: 'text-delta', index: 0, text: 'Writing the' },
    { type: 'tool-use-start', index: 1, toolUseId: 't1', name: 'Write' },
    { type: 'tool-input-delta', toolUseId: 't1', partialJson: '{"file_path":' },
  ];

  it('Esc while a tool input streams: the card ends interrupted (never ran), the text is marked not kept', () => {
    const state = run([
      ...start,
      { type: 'user-message', message: { role: 'user', content: 'go [Request interrupted by user]' } },
      { type: 'turn-end', reason: 'interrupted' },
      { type: 'run-end', transcriptLength: 1 },
    ]);
    const [, text, card, notice] = state.items;
    expect(text).toMatchObject({ kind: 'assistant-text', text: 'Writing the', discarded: true });
    expect(text).not.toHaveProperty('streaming');
    expect(card).toMatchObject({
      kind: 'tool',
      card: { status: 'interrupted', note: expect.stringMatching(/never ran/) },
    });
    expect(notice).toMatchObject({ kind: 'notice', notice: 'interrupted' });
    expect(state.streamingIds).toBeUndefined();
  });

  it('a stream cut that ends in an error does the same; a completed message keeps its text', () => {
    const cut = run([
      ...start,
      { type: 'error', error: { kind: 'network', midStream: true, message: 'cut' } },
      { type: 'turn-end', reason: 'error' },
      { type: 'run-end', transcriptLength: 1 },
    ]);
    expect(cut.items.map((i) => (i.kind === 'tool' ? i.card.status : i.kind))).toEqual([
      'user',
      'assistant-text',
      'interrupted',
      'error',
    ]);
    expect(cut.items[1]).toMatchObject({ discarded: true });
    const whole = run([
      { type: 'run-start', prompt: 'hi' },
      { type: 'message-start', messageId: 'm1', model: 'x' },
      { type: 'text-delta', index: 0, text: 'Hello' },
      {
        type: 'message-end',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        stopReason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 } as never,
      },
      { type: 'turn-end', reason: 'end_turn' },
      { type: 'run-end', transcriptLength: 2 },
    ]);
    expect(whole.items[1]).toEqual({ kind: 'assistant-text', id: 'text:m1:0', text: 'Hello' });
  });

  it('a retried request: its wait is shown until the retry goes out; the half reply before it is not kept', () => {
    const waiting = run([
      ...start,
      {
        type: 'retry-wait',
        attempt: 1,
        maxRetries: 2,
        delayMs: 500,
        error: { kind: 'overloaded', midStream: true, message: 'Overloaded' },
      },
    ]);
    expect(waiting.retry).toMatchObject({ attempt: 1, maxRetries: 2, error: { kind: 'overloaded' } });
    const retried = [waiting].map((s) =>
      [
        { type: 'request-sent', sizes: { toolsChars: 1, systemChars: 1, messagesChars: 1 } } as SessionEvent,
        { type: 'message-start', messageId: 'm2', model: 'x' } as SessionEvent,
      ].reduce(reduceTranscript, s),
    )[0];
    expect(retried.retry).toBeUndefined();
    expect(retried.items[1]).toMatchObject({ discarded: true });
    expect(retried.streamingIds).toEqual([]);
  });

  it('a restored session whose reply was streaming: the text is marked not kept, the cards interrupted', () => {
    const streaming = run(start);
    const restored = reduceTranscript(initialTranscript, {
      type: 'local-restore',
      items: streaming.items,
      interrupted: true,
    });
    expect(restored.items[1]).toMatchObject({ discarded: true });
    expect(restored.items[2]).toMatchObject({ card: { status: 'interrupted', note: expect.any(String) } });
  });
});
