import { describe, expect, it } from 'vitest';
import { SYNTHETIC_TOOL_RESULT_MISSING } from './constants.ts';
import { ensureToolResultPairing, type MessageParam } from './messages.ts';

const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: { file_path: 'a' } });
const result = (id: string, content = 'ok') => ({ type: 'tool_result' as const, tool_use_id: id, content });
const text = (t: string) => ({ type: 'text' as const, text: t });

describe('ensureToolResultPairing', () => {
  it('merges same-role messages of 250,000 blocks', () => {
    const many = Array.from({ length: 250_000 }, (_, i) => ({ type: 'text' as const, text: `t${i}` }));
    const out = ensureToolResultPairing([
      { role: 'user', content: many },
      { role: 'user', content: many },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(out[0].content).toHaveLength(500_000);
    expect(out).toHaveLength(2);
  });

  it('leaves a valid transcript unchanged', () => {
    const msgs: MessageParam[] = [
      { role: 'user', content: [text('hi')] },
      { role: 'assistant', content: [text('reading'), use('t1'), use('t2')] },
      { role: 'user', content: [result('t1'), result('t2')] },
      { role: 'assistant', content: [text('done')] },
    ];
    expect(ensureToolResultPairing(msgs)).toEqual(msgs);
  });

  it('adds a synthetic error result for a tool_use without result, and keeps tool_use order', () => {
    const out = ensureToolResultPairing([
      { role: 'user', content: [text('hi')] },
      { role: 'assistant', content: [use('t1'), use('t2')] },
      { role: 'user', content: [text('[Request interrupted by user]'), result('t2')] },
    ]);
    expect(out[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: SYNTHETIC_TOOL_RESULT_MISSING, is_error: true },
      result('t2'),
      text('[Request interrupted by user]'),
    ]);
  });

  it('adds a user message when the transcript ends with tool uses', () => {
    const out = ensureToolResultPairing([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('t1')] },
    ]);
    expect(out).toHaveLength(3);
    expect(out[2].role).toBe('user');
    expect(out[2].content).toMatchObject([{ type: 'tool_result', tool_use_id: 't1', is_error: true }]);
  });

  it('drops orphan and duplicate tool_results', () => {
    const out = ensureToolResultPairing([
      { role: 'user', content: [text('hi'), result('ghost')] },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [result('t1', 'first'), result('t1', 'second'), result('t9')] },
    ]);
    expect(out[0].content).toEqual([text('hi')]);
    expect(out[2].content).toEqual([result('t1', 'first')]);
  });

  it('merges consecutive messages of one role and fixes a leading assistant message', () => {
    const out = ensureToolResultPairing([
      { role: 'assistant', content: [text('stale')] },
      { role: 'user', content: [text('a')] },
      { role: 'user', content: [text('b')] },
    ]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[2].content).toEqual([text('a'), text('b')]);
  });

  it('removes empty text blocks and never leaves a message empty', () => {
    const out = ensureToolResultPairing([
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [text('  ')] },
    ]);
    expect(out[1].content).toEqual([text('(empty)')]);
  });

  it('drops stored cache_control markers (an imported session could carry more than the API allows)', () => {
    const cc = { type: 'ephemeral' } as const;
    const msgs = [
      { role: 'user', content: [{ type: 'text', text: 'go', cache_control: cc }] },
      { role: 'assistant', content: [{ ...use('t1'), cache_control: cc }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'text', text: 'ok', cache_control: cc }],
            cache_control: cc,
          },
          { type: 'text', text: 'more', cache_control: cc },
        ],
      },
    ] as MessageParam[];
    const copy = structuredClone(msgs);
    const out = ensureToolResultPairing(msgs);
    expect(JSON.stringify(out)).not.toContain('cache_control');
    expect(out[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: [text('ok')] },
      text('more'),
    ]);
    expect(msgs).toEqual(copy);
  });

  it('does not mutate its input', () => {
    const msgs: MessageParam[] = [
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [use('t1')] },
    ];
    const copy = structuredClone(msgs);
    ensureToolResultPairing(msgs);
    expect(msgs).toEqual(copy);
  });
});
