/**
 * The summarizer's bounded view and the split of a transcript too large to keep its tail: pure
 * functions over real transcripts, each view checked with the mock API's own request validator (the
 * rules of the real Messages API) once paired the way the summary request pairs it.
 */
import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from '../../../e2e/mock-api/validate.ts';
import { ToolSearchTool } from '../../tools/tool-search/tool-search.ts';
import { WriteTool } from '../../tools/write/write.ts';
import { TOOL_SEARCH_TOOL_NAME } from '../constants.ts';
import { contentBlocks, ensureToolResultPairing, type MessageParam } from '../messages.ts';
import { estimateJsonTokens } from './estimate.ts';
import { COMPACTION_VIEW_BLOCK_CAPS } from './limits.ts';
import { compactedTranscript, splitForCompaction } from './transcript.ts';
import { droppedNote, MEDIA_LEFT_OUT_NOTE, shortenText, summaryView } from './view.ts';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const lines = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag} ${String(i).padStart(5, '0')}`).join('\n');

/** A round: a prompt, a Write of `chars` characters, its result. */
function writeRound(i: number, chars: number): MessageParam[] {
  return [
    user(`prompt ${i}`),
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `writing ${i}` },
        {
          type: 'tool_use',
          id: `toolu_${i}`,
          name: 'Write',
          input: { file_path: `f${i}.txt`, content: lines(`f${i}`, Math.ceil(chars / 12)) },
        },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `wrote f${i}.txt` }],
    },
  ];
}

const valid = (messages: MessageParam[]) =>
  validateMessagesRequest({
    model: 'm',
    max_tokens: 10,
    messages: ensureToolResultPairing(messages),
    tools: [{ name: 'Write', input_schema: { type: 'object' } }],
  });

describe('shortenText', () => {
  it('keeps the head and the tail around a note of what was left out', () => {
    const text = lines('row', 2_000);
    const out = shortenText(text, 1_000);
    expect(out.length).toBeLessThanOrEqual(1_000);
    expect(out.startsWith('row 00000')).toBe(true);
    expect(out.endsWith('row 01999')).toBe(true);
    const head = out.slice(0, out.indexOf('\n[…'));
    const tail = out.slice(out.indexOf('…]\n') + 3);
    expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
    const left = Number(/\[… ([\d,]+) characters left out/.exec(out)?.[1].replaceAll(',', ''));
    expect(left).toBe(text.length - head.length - tail.length);
    expect(shortenText('short', 1_000)).toBe('short');
  });

  it('never splits a surrogate pair', () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = `${'a'.repeat(shift)}${'😀'.repeat(2_000)}`;
      const out = shortenText(text, 500 + shift);
      // A lone surrogate would not survive a UTF-8 round trip.
      expect(new TextDecoder().decode(new TextEncoder().encode(out))).toBe(out);
      expect(out).toContain('characters left out');
    }
  });
});

describe('summaryView', () => {
  it('sends a conversation that fits as it is', () => {
    const messages = [...writeRound(0, 2_000), ...writeRound(1, 2_000)];
    const view = summaryView(messages, 100_000);
    expect(view).toMatchObject({ cap: Number.POSITIVE_INFINITY, shortened: 0, dropped: 0 });
    expect(view.messages).toEqual(messages);
  });

  it('uses the largest limit that fits, shortening only what is over it; inputs stay objects', () => {
    const messages = [...writeRound(0, 200_000), ...writeRound(1, 3_000), user('go on')];
    const budget = 20_000;
    const view = summaryView(messages, budget);
    expect(view.dropped).toBe(0);
    expect(view.tokens).toBeLessThanOrEqual(budget);
    expect(view.tokens).toBe(view.messages.reduce((a, m) => a + estimateJsonTokens(m), 0));
    // The largest cap that fits: the next larger one would not have.
    const at = COMPACTION_VIEW_BLOCK_CAPS.indexOf(view.cap);
    expect(at).toBeGreaterThan(0);
    expect(summaryView(messages, view.tokens - 1).cap).toBeLessThan(view.cap);
    expect(view.shortened).toBe(1);
    const use = contentBlocks(view.messages[1]).find((b) => b.type === 'tool_use');
    expect(use?.type === 'tool_use' && typeof use.input).toBe('object');
    const content = use?.type === 'tool_use' ? (use.input as { content: string }).content : '';
    expect(content.startsWith('f0 00000')).toBe(true);
    expect(content).toContain('characters left out of this view');
    // The small write and every other message are as they were.
    expect(view.messages.slice(2)).toEqual(messages.slice(2));
    expect(valid(view.messages)).toBeNull();
  });

  it('replaces images and documents with a note', () => {
    const image = { type: 'base64' as const, media_type: 'image/png' as const, data: 'A'.repeat(400_000) };
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'image', source: image },
          { type: 'text', text: 'what is this?' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: 'a.png' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_r', content: [{ type: 'image', source: image }] },
        ],
      },
    ];
    const view = summaryView(messages, 5_000);
    expect(view.dropped).toBe(0);
    const json = JSON.stringify(view.messages);
    expect(json).not.toContain('AAAA');
    expect(json.split(MEDIA_LEFT_OUT_NOTE.slice(1, 30)).length - 1).toBe(2);
    expect(json).toContain('what is this?');
  });

  it('leaves out the oldest messages only below the smallest limit, with a note; the view stays valid', () => {
    const messages = Array.from({ length: 40 }, (_, i) => writeRound(i, 20_000)).flat();
    const view = summaryView(messages, 3_000);
    expect(view.cap).toBe(COMPACTION_VIEW_BLOCK_CAPS.at(-1));
    expect(view.dropped).toBeGreaterThan(0);
    expect(view.tokens).toBeLessThanOrEqual(3_000);
    expect(view.messages[0]).toEqual(user(droppedNote(view.dropped)));
    // The newest messages are the ones kept.
    expect(JSON.stringify(view.messages.at(-1))).toContain('wrote f39.txt');
    expect(valid(view.messages)).toBeNull();
  });
});

describe('a work in progress too large to keep', () => {
  const toolSearchRound: MessageParam[] = [
    user('find a tool'),
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_ts', name: TOOL_SEARCH_TOOL_NAME, input: { query: 'select:Write' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_ts',
          content: [{ type: 'tool_reference', tool_name: 'Write' }] as never,
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'found it' }] },
  ];

  it('is summarized with the rest when over the limit; a large prompt of the user stays', () => {
    const messages = [...toolSearchRound, ...writeRound(1, 40_000)];
    expect(splitForCompaction(messages).tail).toHaveLength(2);
    expect(splitForCompaction(messages, { maxTailTokens: 50_000 }).tail).toHaveLength(2);
    const folded = splitForCompaction(messages, { maxTailTokens: 5_000 });
    expect(folded).toEqual({ head: messages, tail: [] });
    const prompt = [...toolSearchRound, user(lines('paste', 5_000))];
    expect(splitForCompaction(prompt, { maxTailTokens: 5_000 }).tail).toEqual([prompt.at(-1)]);
  });

  it('leaves a compacted transcript that ends with the user, so the turn goes on', () => {
    const messages = [...toolSearchRound, ...writeRound(1, 40_000)];
    const { head, tail } = splitForCompaction(messages, { maxTailTokens: 5_000 });
    const pool = [ToolSearchTool, WriteTool];
    const out = compactedTranscript({ summary: 'S', head, tail, pool, continueTurn: true });
    // The summary, then the tools found before it loaded again, and the turn goes on from there.
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(out[2])).toContain('"tool_reference"');
    const text = JSON.stringify(out[0]);
    expect(text).toContain('7 messages summarized');
    expect(text).not.toContain('the latest messages follow');
    expect(valid(out)).toBeNull();
    // A finished turn (/compact after the answer): the assistant's note closes it for the next prompt.
    const done = compactedTranscript({ summary: 'S', head, tail, pool });
    expect(done.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
