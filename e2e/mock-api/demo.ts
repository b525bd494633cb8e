/**
 * The demo script of the CLI: a text reply, then a Read of README.md, then a final text about the result,
 * looping forever (the last turn queues the demo again).
 */
import type { MockApi, RecordedRequest, ScriptedTurn } from './types.ts';

/** Text of the last tool_result in the request, if any. */
function lastToolResult(req: RecordedRequest): string | undefined {
  const last = req.body.messages.at(-1);
  if (!last || typeof last.content === 'string') return undefined;
  for (const block of last.content) {
    if (block.type !== 'tool_result') continue;
    if (typeof block.content === 'string') return block.content;
    return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
  }
  return undefined;
}

/** The demo turns; the last one queues the demo again so it loops. */
export function demoScript(api: MockApi, chunkDelayMs: number): ScriptedTurn[] {
  return [
    {
      chunkDelayMs,
      content: [
        {
          type: 'text',
          text:
            "Hello! I'm the mock model of tabcode's test server. Send another message and I will read " +
            'README.md with the Read tool.',
        },
      ],
    },
    {
      chunkDelayMs,
      content: [
        { type: 'text', text: 'Let me read the README first.' },
        { type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } },
      ],
    },
    (req) => {
      api.push(...demoScript(api, chunkDelayMs));
      const result = lastToolResult(req);
      const summary =
        result === undefined
          ? 'I did not get the README back.'
          : `The Read tool returned ${result.length} characters, starting with: ${JSON.stringify(result.slice(0, 80))}`;
      return {
        chunkDelayMs,
        content: [{ type: 'text', text: `${summary}\n\nThat is the whole demo; it starts over.` }],
      };
    },
  ];
}
