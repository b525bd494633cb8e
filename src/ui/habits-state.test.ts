/** The transcript items of thinking, compaction, `!` runs, page commands and notes, from session events. */
import { describe, expect, it } from 'vitest';
import type { HookReport } from '../core/hooks/types.ts';
import { fromStoredView, toStoredView } from './stored-view.ts';
import {
  initialTranscript,
  reduceTranscript,
  type TranscriptAction,
  type TranscriptState,
} from './transcript-state.ts';

const run = (events: TranscriptAction[], from: TranscriptState = initialTranscript) =>
  events.reduce(reduceTranscript, from);
const usage = { input_tokens: 10, output_tokens: 5 } as never;

describe('habit items', () => {
  it('streams thinking into a collapsed block that ends with its message, or is discarded with it', () => {
    const s = run([
      { type: 'run-start', prompt: 'hi' },
      { type: 'message-start', messageId: 'm1', model: 'x' },
      { type: 'thinking-start', index: 0, redacted: false },
      { type: 'thinking-delta', index: 0, text: 'Let me ' },
      { type: 'thinking-delta', index: 0, text: 'think.' },
      { type: 'text-delta', index: 1, text: 'Answer' },
      { type: 'message-end', message: { role: 'assistant', content: [] }, stopReason: 'end_turn', usage },
    ]);
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'thinking', 'assistant-text']);
    expect(s.items[1]).toMatchObject({ kind: 'thinking', text: 'Let me think.', streaming: false });
    const cut = run([
      { type: 'message-start', messageId: 'm2', model: 'x' },
      { type: 'thinking-start', index: 0, redacted: false },
      { type: 'thinking-delta', index: 0, text: 'half' },
      { type: 'error', error: { kind: 'network', message: 'cut', midStream: true } },
    ]);
    expect(cut.items[0]).toMatchObject({ kind: 'thinking', discarded: true, streaming: false });
  });

  it('shows a compaction as running, then done with its figures, or failed', () => {
    const s = run([
      { type: 'compaction-start', trigger: 'auto', tokensBefore: 170_000 },
      {
        type: 'compaction-end',
        trigger: 'auto',
        summary: 'S',
        summarized: 40,
        tokensBefore: 170_000,
        tokensAfter: 9_000,
        usage,
        model: 'x',
        messages: [],
      },
      { type: 'compaction-start', trigger: 'manual', tokensBefore: 0 },
      { type: 'compaction-failed', trigger: 'manual', error: { kind: 'aborted', message: 'interrupted' } },
      { type: 'context-cleared', cleared: 3, tokensBefore: 100, tokensAfter: 50, messages: [] },
    ]);
    expect(s.items).toMatchObject([
      { kind: 'compaction', status: 'done', summarized: 40, tokensAfter: 9_000, summary: 'S' },
      { kind: 'compaction', status: 'failed', error: 'interrupted' },
      { kind: 'compaction', status: 'cleared', cleared: 3 },
    ]);
  });

  it('turns shell runs, page commands, hooks, the loop guard and refusals into rows; saved views read back', () => {
    const blocked: HookReport = {
      event: 'PreToolUse',
      label: 'x',
      source: 'workspace',
      toolName: 'Bash',
      outcome: 'blocked',
      decision: 'block',
      message: 'no rm',
      durationMs: 3,
    };
    const quiet: HookReport = { ...blocked, outcome: 'success', decision: undefined, message: undefined };
    const s = run([
      { type: 'shell-start', id: 'a', command: 'ls' },
      { type: 'shell-end', id: 'a', run: { command: 'ls', stdout: 'x\n', stderr: '', exitCode: 0 } },
      { type: 'local-command', input: '/cost', output: '1 request' },
      { type: 'hook-result', report: blocked },
      { type: 'hook-result', report: quiet },
      { type: 'loop-guard', toolName: 'Bash', count: 3, error: 'boom' },
      { type: 'prompt-refused', prompt: '/nope', reason: 'Unknown command /nope' },
      { type: 'memory-loaded', files: ['CLAUDE.md'], chars: 10, cutChars: 0, problems: [] },
    ]);
    expect(s.items.map((i) => (i.kind === 'note' ? `note:${i.topic}` : i.kind))).toEqual([
      'shell',
      'command',
      'note:hook',
      'note:loop-guard',
      'note:refused',
      'note:memory',
    ]);
    const back = fromStoredView(JSON.parse(JSON.stringify(toStoredView(s.items))));
    expect(back?.items).toEqual(s.items);
  });

  it('a reload settles what was still running', () => {
    const s = run([
      { type: 'compaction-start', trigger: 'manual', tokensBefore: 5 },
      { type: 'message-start', messageId: 'm', model: 'x' },
      { type: 'thinking-start', index: 0, redacted: false },
    ]);
    const restored = reduceTranscript(initialTranscript, {
      type: 'local-restore',
      items: s.items,
      interrupted: false,
    });
    expect(restored.items[0]).toMatchObject({ kind: 'compaction', status: 'failed' });
    expect(restored.items[1]).toMatchObject({ kind: 'thinking', discarded: true });
  });
});
