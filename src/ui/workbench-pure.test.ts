import { describe, expect, it } from 'vitest';
import type { MessageParam } from '../core/messages.ts';
import { DEMO_PROJECT } from '../sandbox/demo-project.ts';
import { DEMO_FILES } from './EmptyState.tsx';
import { decodeEntities, safeHref } from './markdown/safe.ts';
import { lineAt, snippetIndex } from './sandbox-context.ts';
import { fromStoredView, itemsFromMessages, toStoredView } from './stored-view.ts';
import { lineCount } from './ToolViews.tsx';
import { latestTodos } from './todos.ts';
import type { TranscriptItem } from './transcript-state.ts';
import { unifiedDiff } from './unified-diff.ts';
import { estimateCost, initialUsage, reduceUsage, splitInputTokens, usageTotals } from './usage-state.ts';

describe('safeHref', () => {
  it('allows absolute http, https and mailto only', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://x.org')).toBe('http://x.org/');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      'vbscript:x',
      'data:text/html,<script>x</script>',
      'file:///etc/passwd',
      '/relative',
      'src/a.js',
      '',
    ]) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });

  it('decodes entities, leaving unknown ones alone', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#65;&#x42; &bogus;')).toBe('a & b <c> AB &bogus;');
  });
});

describe('usage', () => {
  const usage = {
    input_tokens: 100,
    output_tokens: 50,
    cache_read_input_tokens: 800,
    cache_creation_input_tokens: 100,
  };
  it('records each request with its sizes and model, and totals them', () => {
    let s = reduceUsage(initialUsage, {
      type: 'request-sent',
      sizes: { toolsChars: 500, systemChars: 300, messagesChars: 200 },
    });
    s = reduceUsage(s, { type: 'message-start', messageId: 'm', model: 'claude-sonnet-4-5' });
    s = reduceUsage(s, {
      type: 'message-end',
      message: { role: 'assistant', content: [] },
      stopReason: 'end_turn',
      usage: usage as never,
      at: 7,
    });
    expect(s.requests).toEqual([
      {
        at: 7,
        model: 'claude-sonnet-4-5',
        inputTokens: 100,
        outputTokens: 50,
        cacheReadTokens: 800,
        cacheWriteTokens: 100,
        sizes: { toolsChars: 500, systemChars: 300, messagesChars: 200 },
      },
    ]);
    // Sonnet: $3/M in, $15/M out, cache write 1.25×, read 0.1×.
    expect(estimateCost(s.requests[0])).toBeCloseTo((100 * 3 + 100 * 3.75 + 800 * 0.3 + 50 * 15) / 1e6, 12);
    expect(splitInputTokens(s.requests[0])).toEqual({ tools: 500, system: 300, messages: 200 });
    expect(usageTotals(s.requests)).toMatchObject({ requests: 1, inputTokens: 100, cacheReadTokens: 800 });
  });
});

describe('stored view', () => {
  const messages: MessageParam[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'nope', is_error: true },
        { type: 'text', text: '[Request interrupted by user]' },
      ],
    },
  ];

  it('rebuilds items from API messages', () => {
    const items = itemsFromMessages(messages);
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'notice']);
    const card = items[1].kind === 'tool' ? items[1].card : undefined;
    expect(card).toMatchObject({ status: 'error', result: { isError: true, content: 'nope' } });
  });

  it('drops callbacks when saving and refuses views that do not fit', () => {
    const items: TranscriptItem[] = [
      {
        kind: 'tool',
        id: 'tool:t',
        card: {
          toolUseId: 't',
          name: 'Bash',
          status: 'running',
          inputJson: '{"command":"ls"}',
          input: { command: 'ls' },
          progress: '',
          permission: { message: 'ok?', respond: () => {} },
        },
      },
    ];
    const stored = toStoredView(items);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    expect(fromStoredView(stored)?.items[0]).not.toHaveProperty('card.permission');
    expect(fromStoredView({ version: 1, items: [{ kind: 'user', id: 'x', text: 1 }] })).toBeNull();
    expect(fromStoredView({ version: 1, items: [{ kind: 'script', id: 'x' }] })).toBeNull();
    expect(
      fromStoredView({
        version: 1,
        items: [
          { kind: 'user', id: 'x', text: 'a' },
          { kind: 'user', id: 'x', text: 'b' },
        ],
      }),
    ).toBeNull();
  });
});

describe('latestTodos', () => {
  it('reads the newest TodoWrite input and skips malformed entries', () => {
    const card = (id: string, todos: unknown): TranscriptItem => ({
      kind: 'tool',
      id,
      card: {
        toolUseId: id,
        name: 'TodoWrite',
        status: 'done',
        inputJson: '',
        input: { todos },
        progress: '',
      },
    });
    expect(latestTodos([])).toBeNull();
    const items = [
      card('a', [{ content: 'old', status: 'pending' }]),
      card('b', [
        { content: 'x', status: 'in_progress', activeForm: 'Doing x' },
        { status: 'completed' },
        'junk',
      ]),
    ];
    expect(latestTodos(items)).toEqual([{ content: 'x', status: 'in_progress', activeForm: 'Doing x' }]);
  });
});

describe('small defects of #15', () => {
  it('the welcome text names every file of the demo project', () => {
    expect(DEMO_FILES.map(([path]) => path).sort()).toEqual(Object.keys(DEMO_PROJECT).sort());
  });

  it('a fold counts the lines shown: 300 lines ending in a newline are 300', () => {
    const text = `${Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n')}\n`;
    expect(lineCount(text)).toBe(300);
    expect(lineCount('one')).toBe(1);
    expect(lineCount('')).toBe(1);
    expect(lineCount('a\n\n')).toBe(2);
  });

  it("an Edit's snippet is found where its old string is, or where its new string is once", () => {
    const file = 'one x\ntwo\nthree x\nfour\n';
    expect(snippetIndex(file, 'three', 'THREE')).toBe(file.indexOf('three'));
    // It ran: the new string is there, once.
    expect(snippetIndex(file, 'gone', 'four')).toBe(file.indexOf('four'));
    // Refused (its old string is not there) and its new string is everywhere: no guess.
    expect(snippetIndex(file, 'qqq', 'x')).toBe(-1);
    expect(snippetIndex(file, '', '')).toBe(-1);
  });

  it("an Edit's snippet diff is numbered from where the snippet is in the file", () => {
    const file = 'one\ntwo\nthree\nfour\nfive\n';
    const at = lineAt(file, file.indexOf('four'));
    expect(at).toBe(4);
    const diff = unifiedDiff('four\n', 'FOUR\n', at);
    expect(diff.rows[0]).toEqual({ op: 'hunk', text: '@@ -4,1 +4,1 @@' });
    expect(diff.rows.slice(1)).toEqual([
      { op: 'del', text: 'four', oldLine: 4 },
      { op: 'add', text: 'FOUR', newLine: 4 },
    ]);
  });
});
